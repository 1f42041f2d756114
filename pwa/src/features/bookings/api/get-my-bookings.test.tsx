import { act, render, waitFor } from '@testing-library/react';
import { SWRConfig, useSWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { firstAnswersFallback, servedAnswersFirst } from '../../../lib/first-answers.ts';
import { ApiError } from '../../../lib/http.ts';
import { clearPerUserData } from '../../../lib/per-user-data.ts';
import { FakeWorker } from '../../../testing/fake-worker.ts';
import { aBooking, json, storeSession, stubFetch } from '../../../testing/test-utils.tsx';
import { forgetSavedBookingsOnSignOut } from '../forget-saved-bookings.ts';
import {
  type Booking,
  bookingsSaved,
  fetchMyBookings,
  type MyBookings,
  type SaveBookingsRequest,
  useMyBookings,
} from './get-my-bookings.ts';
import { loadSavedBookings, saveBookings } from './saved-bookings.ts';

const PAT = 'pat@clinic.test';
const SAM = 'sam@clinic.test';

const booking = (id: string, email: string): Booking =>
  aBooking({ _id: id, email, patientName: 'Pat', patient: 'Pat' });

let lists: Record<string, Booking[]>;
let network: 'up' | 'down';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-21T15:00:00Z'));
  lists = { [PAT]: [booking('b-pat', PAT)], [SAM]: [booking('b-sam', SAM)] };
  network = 'up';
  stubFetch((request) => {
    if (network === 'down') return Promise.reject(new TypeError('Failed to fetch'));
    const email = new URL(request.url).searchParams.get('email')!;
    if (email === 'broken@clinic.test') return json({ message: 'The clinic database is unavailable' }, 503);
    return json(lists[email] ?? []);
  });
});

afterEach(() => vi.useRealTimers());

/** Loads the list as `email` would while signed in (the session hint names them), and lets its saving finish. */
async function loadAs(email: string) {
  storeSession(email);
  const loaded = await fetchMyBookings(email);
  await bookingsSaved();
  return loaded;
}

describe("the patient's bookings, kept for offline viewing", () => {
  it('saves every list it loads under that user, with the time it was loaded', async () => {
    const loaded = await loadAs(PAT);

    expect(loaded).toEqual({ bookings: lists[PAT], savedAt: Date.parse('2026-11-21T15:00:00Z'), offline: false });
    expect(await loadSavedBookings(PAT)).toEqual({ bookings: lists[PAT], savedAt: Date.parse('2026-11-21T15:00:00Z') });
  });

  it('offline, returns the saved list marked offline, with when it was saved', async () => {
    await loadAs(PAT);
    vi.setSystemTime(new Date('2026-11-22T08:30:00Z'));
    network = 'down';

    expect(await loadAs(PAT)).toEqual({
      bookings: lists[PAT],
      savedAt: Date.parse('2026-11-21T15:00:00Z'),
      offline: true,
    });
  });

  it('offline with nothing saved, fails with the network error', async () => {
    network = 'down';
    const failure = await loadAs(PAT).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(0);
  });

  it('does not hide an answer of the server behind the saved list', async () => {
    await saveBookings('broken@clinic.test', [booking('old', 'broken@clinic.test')]);
    await expect(loadAs('broken@clinic.test')).rejects.toMatchObject({
      status: 503,
      message: 'The clinic database is unavailable',
    });
  });

  it("keeps each user's list apart: offline, a user sees only their own", async () => {
    await loadAs(PAT);
    await loadAs(SAM);
    network = 'down';

    expect((await loadAs(SAM)).bookings.map((b) => b._id)).toEqual(['b-sam']);
    expect((await loadAs(PAT)).bookings.map((b) => b._id)).toEqual(['b-pat']);
    await expect(loadAs('new@clinic.test')).rejects.toMatchObject({ status: 0 });
  });

  it('saves nothing for a user who signed out while the list was on its way', async () => {
    storeSession(SAM); // the session now belongs to someone else
    await fetchMyBookings(PAT);
    await bookingsSaved();
    expect(await loadSavedBookings(PAT)).toBeUndefined();
  });

  it('answers with the list before its copy is saved, and a sign-out right after leaves no copy behind', async () => {
    const unregister = forgetSavedBookingsOnSignOut();
    try {
      storeSession(PAT);
      const loaded = await fetchMyBookings(PAT);
      expect(loaded.bookings).toEqual(lists[PAT]);
      // Signing out as the list arrives: the hint goes first, then the user's saved data.
      localStorage.clear();
      await clearPerUserData({ email: PAT });
      await bookingsSaved();
      expect(await loadSavedBookings(PAT)).toBeUndefined();
    } finally {
      unregister();
    }
  });

  it("sign-out deletes that user's saved list and no one else's", async () => {
    const unregister = forgetSavedBookingsOnSignOut();
    try {
      await loadAs(PAT);
      await loadAs(SAM);

      await clearPerUserData({ email: PAT });

      expect(await loadSavedBookings(PAT)).toBeUndefined();
      expect((await loadSavedBookings(SAM))?.bookings).toEqual(lists[SAM]);
    } finally {
      unregister();
    }
  });
});

/**
 * A worker that does what save-bookings.worker.ts does, a tick after it is asked (or fails to start when told):
 * the copy written off the page's main thread, with what the page posts.
 */
class SavingWorker extends FakeWorker {
  static failToStart = false;
  override postMessage(request: SaveBookingsRequest) {
    super.postMessage(request);
    setTimeout(() => {
      if (SavingWorker.failToStart) return this.dispatchEvent(new Event('error'));
      saveBookings(request.email, request.bookings, request.savedAt).then(
        () => this.dispatchEvent(new MessageEvent('message', { data: { saved: true } })),
        (cause: unknown) =>
          this.dispatchEvent(new MessageEvent('message', { data: { saved: false, reason: `${cause}` } })),
      );
    }, 5);
  }
}

describe('the offline copy, written in a worker', () => {
  beforeEach(() => {
    vi.stubGlobal('Worker', SavingWorker);
    FakeWorker.made = [];
    SavingWorker.failToStart = false;
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is handed to a module worker with the list and when it was loaded, and the worker is ended once it has written it', async () => {
    await loadAs(PAT);
    const [worker] = FakeWorker.made;
    expect(worker?.url.pathname).toMatch(/save-bookings\.worker\.ts$/);
    expect(worker?.options).toEqual({ type: 'module' });
    expect(worker?.posted).toEqual([{ email: PAT, bookings: lists[PAT], savedAt: Date.parse('2026-11-21T15:00:00Z') }]);
    expect(worker?.terminated).toBe(true);
    network = 'down';
    expect((await fetchMyBookings(PAT)).bookings).toEqual(lists[PAT]);
  });

  it('is written by the page when the worker cannot start', async () => {
    SavingWorker.failToStart = true;
    await loadAs(PAT);
    expect(FakeWorker.made[0]?.terminated).toBe(true);
    expect((await loadSavedBookings(PAT))?.bookings).toEqual(lists[PAT]);
  });

  it('is gone after a sign-out that came while the worker was writing it', async () => {
    const unregister = forgetSavedBookingsOnSignOut();
    try {
      storeSession(PAT);
      await fetchMyBookings(PAT);
      await vi.waitFor(() => expect(FakeWorker.made).toHaveLength(1));
      localStorage.clear();
      await clearPerUserData({ email: PAT });
      expect(FakeWorker.made[0]?.terminated).toBe(true);
      expect(await loadSavedBookings(PAT)).toBeUndefined();
    } finally {
      unregister();
    }
  });
});

/** Each list PAT's page was drawn with, and a reload of every cached key. */
const shown: (MyBookings | undefined)[] = [];
let reload: () => Promise<unknown> = async () => undefined;
function List() {
  const { data } = useMyBookings(PAT);
  const { mutate } = useSWRConfig();
  reload = () => mutate(() => true);
  shown.push(data);
  return null;
}

describe('the list the page was served with', () => {
  it('is not drawn again when the app’s own request brings the same list, and is when it differs', async () => {
    storeSession(PAT);
    shown.length = 0;
    // Served a moment before the app asks again.
    const fallback = firstAnswersFallback(
      { email: PAT, answers: { '/bookings?email=pat%40clinic.test': lists[PAT] } },
      Date.now() - 2000,
    );
    const fetched = vi.mocked(fetch);
    render(
      <SWRConfig value={{ provider: () => new Map(), fallback, dedupingInterval: 0 }}>
        <List />
      </SWRConfig>,
    );
    await waitFor(() => expect(fetched).toHaveBeenCalledTimes(1));
    await act(() => bookingsSaved());
    // One list from first to last: the answer was the same, loaded a moment later.
    expect(new Set(shown).size).toBe(1);
    expect(shown[0]?.bookings).toEqual(lists[PAT]);

    lists[PAT] = [booking('b-new', PAT)];
    await act(() => reload());
    await waitFor(() => expect(shown.at(-1)?.bookings.map((b) => b._id)).toEqual(['b-new']));
  });

  /** Draws PAT's list as the app does when it starts with the page's answers, `msAfterStart` after its start. */
  function startWithServedList(msAfterStart: number) {
    storeSession(PAT);
    shown.length = 0;
    const fallback = firstAnswersFallback({ email: PAT, answers: { '/bookings?email=pat%40clinic.test': lists[PAT] } });
    let clock = 1_000;
    const served = servedAnswersFirst(new Set(Object.keys(fallback)), () => clock);
    clock += msAfterStart;
    render(
      <SWRConfig value={{ provider: () => new Map(), fallback, use: [served] }}>
        <List />
      </SWRConfig>,
    );
  }

  it('is not asked for again as the app starts, and is saved on the device for offline use', async () => {
    startWithServedList(500);
    await waitFor(async () => expect((await loadSavedBookings(PAT))?.bookings).toEqual(lists[PAT]));
    expect(fetch).not.toHaveBeenCalled();
    expect(new Set(shown).size).toBe(1);
    // Asked again on any later occasion.
    lists[PAT] = [booking('b-new', PAT)];
    await act(() => reload());
    await waitFor(() => expect(shown.at(-1)?.bookings.map((b) => b._id)).toEqual(['b-new']));
  });

  it('is asked for again when its page mounts long after the app started', async () => {
    startWithServedList(20_000);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
  });
});
