// Loads the browser's date-format data (ICU's, shared by every thread of the page) off the main thread: the
// page's first date formatter then costs its render nothing (warm-date-formats.ts).
addEventListener('message', (event: MessageEvent<string>) => {
  // As @date-fns/tz makes it, for the clinic's today.
  new Intl.DateTimeFormat('en-US', { timeZone: event.data, timeZoneName: 'longOffset' }).format(0);
  postMessage('ready');
});
