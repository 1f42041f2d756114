import useSWR from 'swr';
import type { DayCount, ReviewEntry, ScheduleDay, ScheduleEntry } from '../../../../../contract/schedule.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import { REVIEW_KEY, scheduleCountsKey, scheduleDayKey } from '../../../lib/cache-keys.ts';

export type { DayCount, ReviewEntry, ScheduleDay, ScheduleEntry };

/** GET /api/schedule/review (admin): every upcoming booking waiting for the front desk, by date and time. */
export function useReviewList() {
  return useSWR<ReviewEntry[]>(REVIEW_KEY, apiFetcher<ReviewEntry[]>);
}

/** GET /api/schedule?date= (admin): one day's hours, doctors, chairs and bookings. */
export function useScheduleDay(date: string) {
  return useSWR<ScheduleDay>(scheduleDayKey(date), apiFetcher<ScheduleDay>);
}

/** GET /api/schedule?from=&to= (admin): the appointments of each day of a range. */
export function useDayCounts(from: string, to: string) {
  return useSWR<DayCount[]>(scheduleCountsKey(from, to), apiFetcher<DayCount[]>);
}

/** GET /api/schedule.csv?from=&to= (admin), as a file (the access token rides along, so not a plain link). */
export function fetchScheduleCsv(from: string, to: string): Promise<Blob> {
  return api<Blob>(`/schedule.csv?from=${from}&to=${to}`, { headers: { Accept: 'text/csv' } });
}
