/**
 * Runs `task` once the browser has painted the next frame (a timer set in an animation frame fires after that
 * frame's paint): for work the page's first paint does not need (Firebase on the sign-in pages, the service
 * worker), so it neither delays that paint nor competes with it for the network. Waits while the
 * tab is hidden, as animation frames do. Returns a cancel function (for an effect's cleanup).
 */
export function afterPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(task, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
