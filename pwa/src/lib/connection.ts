/**
 * What the app knows about its connection, from its own requests: a request that fails on the network
 * (fetch's TypeError) says offline, any answer from the server (even a 4xx or 5xx) says online. The
 * browser's `offline` and `online` events count too. `navigator.onLine` alone never decides: Chromium
 * reports false on a machine whose only interface is loopback although the server answers, so before
 * anything is known the app takes itself to be online and tries (the offline banner may still hint).
 *
 * While offline, one light request (HEAD /api/health, backing off from 2 s to 30 s) finds out when the
 * connection is back, for the cases no `online` event announces (the server was unreachable, the
 * browser never thought itself online).
 */
import { pathOf } from './route-paths.ts';

/** true or false once a request or an event has told; null before. */
let known: boolean | null = null;
const listeners = new Set<() => void>();

export const PROBE_PATH = `/api${pathOf('GET /health')}`;
const FIRST_PROBE_MS = 2_000;
const MAX_PROBE_MS = 30_000;
let probeTimer: ReturnType<typeof setTimeout> | null = null;
let probeDelay = FIRST_PROBE_MS;

function stopProbe() {
  if (probeTimer !== null) clearTimeout(probeTimer);
  probeTimer = null;
  probeDelay = FIRST_PROBE_MS;
}

function scheduleProbe() {
  if (probeTimer !== null) return;
  probeTimer = setTimeout(() => {
    probeTimer = null;
    fetch(PROBE_PATH, { method: 'HEAD', cache: 'no-store' }).then(
      () => noteAnswer(),
      () => {
        if (known !== false) return;
        probeDelay = Math.min(probeDelay * 2, MAX_PROBE_MS);
        scheduleProbe();
      },
    );
  }, probeDelay);
}

function set(online: boolean) {
  if (online) stopProbe();
  else scheduleProbe();
  if (known === online) return;
  known = online;
  for (const listener of listeners) listener();
}

/** The server answered a request (any status): the app is online. */
export function noteAnswer(): void {
  set(true);
}

/** A request failed on the network (no answer at all): the app is offline until an answer or `online`. */
export function noteNetworkFailure(): void {
  set(false);
}

/** Whether the app knows it is offline (a request failed on the network, or the `offline` event). */
export const knownOffline = (): boolean => known === false;

/** Offline as far as anything can tell: known offline, or nothing known yet and the browser says so. */
export const seemsOffline = (): boolean => known === false || (known === null && !navigator.onLine);

/** Calls `listener` whenever what the app knows changes; returns the unsubscribe. */
export function subscribeConnection(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => set(true));
  window.addEventListener('offline', () => set(false));
}

/** Tests: back to knowing nothing, with no probe pending. */
export function resetConnection(): void {
  stopProbe();
  known = null;
}
