import { addDays } from 'date-fns/addDays';
import useSWR from 'swr';
import type { DayCount, ReviewEntry, ScheduleDay, ScheduleEntry } from '../../../../../contract/schedule.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { REVIEW_KEY, scheduleCountsKey, scheduleDayKey } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';
import { clinicToday, isoDay } from '../../../lib/clinic-calendar.ts';
import { clinicDb } from '../../../lib/db.ts';
import { ApiError, isNetworkFailure } from '../../../lib/http.ts';

export type { DayCount, ReviewEntry, ScheduleDay, ScheduleEntry };

/** GET /api/schedule/review (admin): every upcoming booking waiting for the front desk, by date and time. */
export function useReviewList() {
  return useSWR<ReviewEntry[]>(REVIEW_KEY, apiFetcher<ReviewEntry[]>);
}

/** How many days from today on this device keeps for the front desk to work offline. */
export const KEPT_DAYS = 3;

/** Today and the next days on the clinic's calendar, as this device keeps them. */
export function keptDates(): string[] {
  const today = clinicToday();
  return Array.from({ length: KEPT_DAYS }, (_, i) => isoDay(addDays(today, i)));
}

/** A day of the schedule; `savedAt` (ms) when it is this device's copy because the network failed. */
export type LoadedDay = { day: ScheduleDay; savedAt: number | null };

/** GET /api/schedule?date=, kept on this device for `email` when it is one of the kept days. */
async function fetchDay(date: string, email: string | null): Promise<ScheduleDay> {
  const day = await client('GET /schedule', { query: { date } });
  // Asked for a day, the schedule answers that day (the counts of a range are asked with from and to).
  if (Array.isArray(day)) throw new ApiError(200, 'The server sent an invalid response');
  if (email && keptDates().includes(date)) {
    await clinicDb()
      .savedSchedules.put({ date, email: email.toLowerCase(), day, savedAt: Date.now() })
      .catch((cause: unknown) => console.error('The schedule could not be kept for offline use', cause));
  }
  return day;
}

async function loadDay(date: string, email: string | null): Promise<LoadedDay> {
  try {
    return { day: await fetchDay(date, email), savedAt: null };
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    const saved = await clinicDb().savedSchedules.get(date);
    if (!saved || saved.email !== email?.toLowerCase()) throw error;
    return { day: saved.day as ScheduleDay, savedAt: saved.savedAt };
  }
}

/**
 * GET /api/schedule?date= (admin): one day's hours, doctors, chairs and bookings. Today's and the
 * next two days' are kept on this device whenever they load; with no network, the kept copy is
 * answered, with the time it was loaded (docs/product-admin.md#the-front-desk-offline).
 */
export function useScheduleDay(date: string, email: string | null) {
  return useSWR<LoadedDay>(scheduleDayKey(date), () => loadDay(date, email));
}

/**
 * Loads and keeps the kept days other than `shown` (which its own load keeps), for later offline
 * use, and forgets the days before today.
 */
export function keepComingDays(shown: string, email: string): void {
  const dates = keptDates();
  for (const date of dates) {
    if (date !== shown) fetchDay(date, email).catch(() => undefined);
  }
  clinicDb()
    .savedSchedules.where('date')
    .below(dates[0] ?? '')
    .delete()
    .catch((cause: unknown) => console.error('The schedule of past days could not be forgotten', cause));
}

/** Forgets the signed-out user's kept schedule. */
export async function deleteSavedSchedules(email: string): Promise<void> {
  await clinicDb().savedSchedules.where('email').equals(email.toLowerCase()).delete();
}

/** GET /api/schedule?from=&to= (admin): the appointments of each day of a range. */
export function useDayCounts(from: string, to: string) {
  return useSWR<DayCount[]>(scheduleCountsKey(from, to), apiFetcher<DayCount[]>);
}

/** GET /api/schedule.csv?from=&to= (admin), as a file (the access token rides along, so not a plain link). */
export function fetchScheduleCsv(from: string, to: string): Promise<Blob> {
  return client('GET /schedule.csv', { query: { from, to }, headers: { Accept: 'text/csv' } });
}
