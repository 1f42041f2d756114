import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeWorker } from '../testing/fake-worker.ts';
import { warmDateFormats } from './warm-date-formats.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  FakeWorker.made = [];
});

describe('the date formats warmed in a worker', () => {
  it('asks a module worker for the clinic’s zone, and ends it once it has answered', () => {
    vi.stubGlobal('Worker', FakeWorker);
    warmDateFormats('America/New_York');
    const [worker] = FakeWorker.made;
    expect(worker?.url.pathname).toMatch(/date-formats\.worker\.ts$/);
    expect(worker?.options).toEqual({ type: 'module' });
    expect(worker?.posted).toEqual(['America/New_York']);
    expect(worker?.terminated).toBe(false);
    worker?.dispatchEvent(new MessageEvent('message', { data: 'ready' }));
    expect(worker?.terminated).toBe(true);
  });

  it('ends a worker that failed, and does nothing where there are no workers', () => {
    vi.stubGlobal('Worker', FakeWorker);
    warmDateFormats('America/New_York');
    FakeWorker.made[0]?.dispatchEvent(new Event('error'));
    expect(FakeWorker.made[0]?.terminated).toBe(true);
    vi.stubGlobal('Worker', undefined);
    expect(() => warmDateFormats('America/New_York')).not.toThrow();
  });
});
