/** A Worker (stubbed as the global) that records what the page asks of it and whether it was ended. */
export class FakeWorker extends EventTarget {
  /** Every worker made since the last reset, in order. */
  static made: FakeWorker[] = [];
  posted: unknown[] = [];
  terminated = false;
  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    super();
    FakeWorker.made.push(this);
  }
  postMessage(message: unknown) {
    this.posted.push(message);
  }
  terminate() {
    this.terminated = true;
  }
}
