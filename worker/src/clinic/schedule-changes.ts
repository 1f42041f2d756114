import type { StrandedBooking, StrandedConflict } from '../../../contract/bookings.ts';
import {
  markStranded,
  type ScheduleChange,
  type StrandedRow,
  strandedBookings,
  toStranded,
} from '../booking/data/bookings.ts';
import type { Env } from '../platform/env.ts';
import { HttpError } from '../platform/http.ts';

/**
 * Makes a schedule change (`write`, statements for one batch) unless it would strand upcoming
 * bookings (`change` says which): then 409 with them listed, unless `force`. In the change's own
 * batch the bookings it strands at that moment (a booking made since the check included) are
 * marked for the front desk's review and listed in the answer: nothing is dropped in silence.
 * Answers them and the results of `write`.
 */
export async function changeSchedule(
  env: Env,
  change: ScheduleChange,
  { force, retry }: { force: boolean; retry: string },
  write: D1PreparedStatement[],
): Promise<{ stranded: StrandedBooking[]; results: D1Result[] }> {
  const now = new Date();
  if (!force) {
    const { results } = await strandedBookings(env, change, now).all<StrandedRow>();
    if (results.length > 0) {
      const n = results.length;
      const details = { stranded: results.map(toStranded) } satisfies Omit<
        StrandedConflict,
        'acknowledged' | 'message'
      >;
      throw new HttpError(
        409,
        `${n} upcoming booking${n === 1 ? '' : 's'} would no longer fit the schedule (listed in "stranded"); ${retry} to make the change anyway and keep ${n === 1 ? 'it' : 'them'} for the front desk to rearrange`,
        {},
        details,
      );
    }
  }
  const [found, , ...results] = await env.DB.batch([
    strandedBookings(env, change, now),
    markStranded(env, change, now),
    ...write,
  ]);
  return { stranded: ((found?.results ?? []) as StrandedRow[]).map(toStranded), results };
}

export const RETRY_WITH_FORCE = 'send it again with "force": true';
export const RETRY_WITH_FORCE_QUERY = 'send it again with ?force=true';
