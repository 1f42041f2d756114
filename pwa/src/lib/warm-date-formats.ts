import { askWorker } from './ask-worker.ts';

/**
 * Has a worker load the browser's date-format data before a page's first render needs it (the clinic's today, a
 * booking's deadlines). The first date formatter of a page costs some 12 ms on a phone's main thread, 50 ms at ×4
 * CPU, whatever its options, and that data is shared by every thread of the page: made in a worker first, the
 * page's own costs 0–2 ms (a Chromium trace at ×4: 75–119 ms without). Where no worker starts, the page's first
 * formatter pays, as it always did.
 */
export function warmDateFormats(timeZone: string): void {
  if (typeof Worker === 'undefined') return;
  try {
    const worker = new Worker(new URL('./date-formats.worker.ts', import.meta.url), { type: 'module' });
    // Nothing to do with its answer, or its failure: then the page's first formatter pays.
    askWorker(worker, timeZone).catch(() => undefined);
  } catch (cause) {
    console.error(cause);
  }
}
