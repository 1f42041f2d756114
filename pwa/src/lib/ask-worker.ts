/**
 * Posts `message` to a worker made for one answer, and ends it once it has answered or failed (a worker left
 * running would hold a thread for nothing). Rejects when its code did not load or run. The caller makes the worker,
 * `new Worker(new URL('./x.worker.ts', import.meta.url), { type: 'module' })`, for the bundler to build its file.
 */
export function askWorker<Answer>(worker: Worker, message: unknown): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    worker.addEventListener('message', ({ data }: MessageEvent<Answer>) => {
      worker.terminate();
      resolve(data);
    });
    worker.addEventListener('error', () => {
      worker.terminate();
      reject(new Error('The worker could not run'));
    });
    worker.postMessage(message);
  });
}
