import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeRequest, json, stubFetch } from '../testing/test-utils.tsx';
import { api } from './api.ts';
import { PROBE_PATH } from './connection.ts';
import { useOfflineHint, useOnlineStatus } from './use-online-status.ts';

let browserOnline: boolean;
let reachable: boolean;
let requests: string[];

beforeEach(() => {
  browserOnline = true;
  reachable = true;
  requests = [];
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => browserOnline });
  stubFetch((request) => {
    requests.push(describeRequest(request));
    return reachable ? json({ ok: true }) : Promise.reject(new TypeError('Failed to fetch'));
  });
});

afterEach(() => vi.useRealTimers());

function watch() {
  return renderHook(() => ({ online: useOnlineStatus(), hint: useOfflineHint() })).result;
}

const request = () => act(() => api('/reviews').catch(() => undefined));

describe('the connection state, from the app’s own requests', () => {
  it('a request that fails on the network flips it to offline; one that gets an answer flips it back', async () => {
    const state = watch();
    expect(state.current).toEqual({ online: true, hint: false });

    reachable = false;
    await request();
    expect(state.current).toEqual({ online: false, hint: true });

    reachable = true;
    await request();
    expect(state.current).toEqual({ online: true, hint: false });
  });

  it('any answer counts as online, an error status too', async () => {
    reachable = false;
    const state = watch();
    await request();
    stubFetch(() => json({ message: 'Mail is unavailable' }, 503));
    await request();
    expect(state.current.online).toBe(true);
  });

  it('navigator.onLine false blocks nothing: the request is sent, and its answer says online', async () => {
    browserOnline = false;
    const state = watch();
    // Only a hint until something is known; the app still takes itself to be online.
    expect(state.current).toEqual({ online: true, hint: true });

    await expect(api('/reviews')).resolves.toEqual({ ok: true });
    expect(requests).toEqual(['GET /api/reviews']);
    expect(state.current).toEqual({ online: true, hint: false });
  });

  it('follows the browser’s offline and online events', () => {
    const state = watch();
    browserOnline = false;
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(state.current).toEqual({ online: false, hint: true });
    browserOnline = true;
    act(() => void window.dispatchEvent(new Event('online')));
    expect(state.current).toEqual({ online: true, hint: false });
  });

  it('an aborted request says nothing about the network', async () => {
    const state = watch();
    stubFetch(() => Promise.reject(new DOMException('The operation was aborted.', 'AbortError')));
    await request();
    expect(state.current.online).toBe(true);
  });

  it('while offline, checks the server now and then, backing off, and is online once it answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const state = watch();
    reachable = false;
    await request();
    expect(state.current.online).toBe(false);
    const probes = () => requests.filter((r) => r === `HEAD ${PROBE_PATH}`).length;

    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(probes()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(3_999));
    expect(probes()).toBe(1); // the next one 4 s after the first
    reachable = true;
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(probes()).toBe(2);
    expect(state.current.online).toBe(true);

    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(probes()).toBe(2); // online: no more checks
  });
});
