import type { StrandDryRun, StrandedBooking, StrandedConflict, WithdrawnOffer } from '../../../../contract/bookings.ts';
import { displayDate } from '../../platform/clinic-time.ts';
import { clock } from '../../platform/clock.ts';
import type { Actor } from '../../platform/data/audit.ts';
import type { Env } from '../../platform/env.ts';
import { HttpError } from '../../platform/http.ts';
import { strandedEvents, withdrawnOfferEvents } from '../data/events.ts';
import { withdrawOffersStrandedBy } from '../data/offer-writes.ts';
import {
  type ScheduleChange,
  type StrandedRow,
  strandClock,
  strandedBookingRows,
  strandedBookings,
  toStranded,
} from '../data/strand.ts';
import { type WithdrawnOfferRow, withdrawnOffersQuery } from '../data/waitlist.ts';
import { markStranded } from '../data/writes.ts';
import { cancelStatements } from './cancel.ts';

// Schedule changes.

export const RETRY_WITH_FORCE = 'send it again with "force": true';

export const RETRY_WITH_FORCE_QUERY = 'send it again with ?force=true';

export interface StrandOutcome {
  stranded: StrandedBooking[];
  /** With `cancel`: the bookings the change cancelled. */
  cancelled: StrandedBooking[];
  withdrawnOffers: WithdrawnOffer[];
  results: D1Result[];
}

/** What becomes of the bookings a forced change strands: kept for review (the default), or cancelled by `actor`. */
export interface StrandMode {
  force: boolean;
  retry: string;
  /** Cancel them instead, for this reason (the patients read it; paid ones are refunded). */
  cancel?: { actor: Actor; reason: string };
  /** Change nothing: answer (200, StrandDryRun) with the bookings the change would strand. */
  dryRun?: boolean;
  /** Who makes the change (the events of the bookings it strands name them). */
  actor?: Actor;
}

/**
 * Makes a schedule change (`write`, statements for one batch) unless it would strand upcoming
 * bookings: then 409 with them listed, unless `force` or `cancel`. In the change's own batch the
 * bookings it strands are cancelled (with `cancel`: each refunded and told why, as any cancellation
 * by the clinic) or kept, marked for the front desk's review, each patient told the clinic will call
 * (a booking stranded after they were read is kept so too); the open offers it invalidates are
 * withdrawn (their held time freed, their patients told). All are listed in the answer: nothing is
 * dropped in silence.
 */
export async function strand(
  env: Env,
  change: ScheduleChange,
  mode: StrandMode,
  write: D1PreparedStatement[],
): Promise<StrandOutcome> {
  const { force, retry, cancel, dryRun } = mode;
  const now = clock();
  // A treatment withdrawn keeps its bookings (they were booked while it was offered); only its offers go.
  const strandsBookings = change.kind !== 'treatment withdrawn';
  if (dryRun) {
    const { results } = strandsBookings
      ? await strandedBookings(env, change, now).all<StrandedRow>()
      : { results: [] as StrandedRow[] };
    const n = results.length;
    // Thrown, so that nothing after this point in the handler runs: the answer is the whole dry run.
    throw new HttpError(
      200,
      n === 0
        ? 'Nothing changed (a dry run): no upcoming booking would be affected'
        : `Nothing changed (a dry run): ${n} upcoming booking${n === 1 ? '' : 's'} would no longer fit the schedule`,
      {},
      { dryRun: true, stranded: results.map(toStranded) } satisfies Omit<StrandDryRun, 'acknowledged' | 'message'>,
    );
  }
  if (!force && !cancel && strandsBookings) {
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
  const toCancel = cancel && strandsBookings ? await strandedBookingRows(env, change, now) : [];
  const plans = cancel
    ? toCancel.map((row) =>
        cancelStatements(env, cancel.actor, row, { evenPaid: true, by: 'admin', note: cancel.reason, refund: true }),
      )
    : [];
  const cancelling = plans.flatMap((plan) => plan.statements);
  const atStrand = strandClock(env, now);
  const actor = cancel?.actor ?? mode.actor ?? { system: 'system' };
  const kept = strandsBookings
    ? [
        strandedBookings(env, change, now),
        strandedEvents(env.DB, change, atStrand, actor),
        markStranded(env.DB, change, atStrand),
      ]
    : [];
  const offers = [
    withdrawnOffersQuery(env.DB, change, atStrand),
    withdrawnOfferEvents(env.DB, change, atStrand, actor),
    ...withdrawOffersStrandedBy(env.DB, change, atStrand),
  ];
  const all = await env.DB.batch([...cancelling, ...kept, ...offers, ...write]);
  let at = 0;
  const cancelled: StrandedBooking[] = [];
  for (const [i, plan] of plans.entries()) {
    const results = all.slice(at, at + plan.statements.length);
    const row = toCancel[i];
    if (row && plan.changed(results) > 0) cancelled.push(toStranded(row));
    at += plan.statements.length;
  }
  const found = strandsBookings ? all[cancelling.length] : undefined;
  const withdrawnResult = all[cancelling.length + kept.length];
  const results = all.slice(cancelling.length + kept.length + offers.length);
  const withdrawn = (withdrawnResult?.results ?? []) as WithdrawnOfferRow[];
  const stranded = ((found?.results ?? []) as StrandedRow[]).map(toStranded);
  return {
    stranded,
    cancelled,
    withdrawnOffers: withdrawn.map((o) => ({
      _id: o.id,
      treatment: o.treatment ?? '',
      date: o.day,
      appointmentDate: displayDate(o.day),
      slot: o.slot,
      patientName: o.patient_name,
      email: o.email,
    })),
    results,
  };
}
