import { datesBetween } from '../../../../contract/fields.ts';
import { MAX_WAITLIST_DAYS } from '../../../../contract/messages.ts';
import { slotLabel } from '../../../../contract/slot-label.ts';
import { messageSettings } from '../../clinic/data/message-settings.ts';
import type { TreatmentRow } from '../../clinic/data/treatments.ts';
import type { Patient } from '../../people/data/users.ts';
import { bookingWindowProblem, clinicInstant, clinicNow, firstBookableMinute } from '../../platform/clinic-time.ts';
import { clock } from '../../platform/clock.ts';
import { timeFreedEvent } from '../../platform/data/events.ts';
import { violates } from '../../platform/data/unique-constraint.ts';
import type { Env } from '../../platform/env.ts';
import { bookingEvent, offerEvent, releasedEvents } from '../data/events.ts';
import { acceptOffer, declineOffer, expireOffers, insertOffer, withdrawOffersOfEntry } from '../data/offer-writes.ts';
import { entriesInLine, leaveEntry, type OfferRow, offeredKey, pastOffers } from '../data/waitlist.ts';
import {
  checkPlacement,
  dropDeadClaims,
  insertBooking,
  insertClaims,
  type NewBookingRow,
  ONE_CLAIM_PER_CELL,
  ONE_OPEN_OFFER,
  releaseLapsedHoldsInTheWay,
} from '../data/writes.ts';
import { holdRules, openWeek, paymentTerms } from '../holds.ts';
import { cellsOf, type Day, freePairs, freeStarts, readDay } from '../schedule.ts';
import { asPatient, claimOf, placementOf } from './plan.ts';
import { brokenRule, conflictOf, PAIR_RULES } from './rules.ts';

// The waitlist's offers.

export const LINE_LIMIT = 200;

export const OFFERS_PER_RUN = 50;

/** Marks a new hold's cells taken in a day read before it, so the next offer of the run looks elsewhere. */
export function take(day: Day, resources: readonly string[], cells: { firstCell: number; lastCell: number }): void {
  for (const resource of resources) {
    const taken = day.taken.get(resource) ?? new Uint8Array(96);
    day.taken.set(resource, taken);
    for (let cell = cells.firstCell; cell <= cells.lastCell; cell++) taken[cell] = 1;
    day.load.set(resource, (day.load.get(resource) ?? 0) + cells.lastCell - cells.firstCell + 1);
  }
}

/**
 * Offers freed times to the waitlist at `now`: first closes the offers that expired, then, for each
 * entry in line (oldest first) without an open offer, the earliest free start of its treatment on
 * its dates that starts after the hold would end and was not offered to it before, held for its
 * doctor, chair and patient until the hold ends, under every placement rule (the patient's hold
 * limit counts it with their unpaid bookings), with the offer's mail in the same batch. Answers how
 * many offers it made.
 */
export async function offerFreedTimes(env: Env, now: Date): Promise<number> {
  await env.DB.batch(expireOffers(env.DB, now));
  const today = clinicNow(env, now).date;
  const line = await entriesInLine(env.DB, today, now, LINE_LIMIT);
  if (line.length === 0) return 0;
  const [offered, settings] = await Promise.all([
    pastOffers(
      env.DB,
      line.map((e) => e.id),
    ),
    messageSettings(env.DB),
  ]);
  const expiresAt = new Date(now.getTime() + settings.offer_hold_minutes * 60_000);
  const days = new Map<string, Day>();
  const maxUnpaid = holdRules(env).maxUnpaid;
  let made = 0;
  for (const entry of line) {
    if (made >= OFFERS_PER_RUN) break;
    if (await offerOne(env, entry, { today, now, expiresAt, offered, days, maxUnpaid })) made += 1;
  }
  return made;
}

export type OfferRun = {
  today: string;
  now: Date;
  expiresAt: Date;
  offered: Set<string>;
  days: Map<string, Day>;
  maxUnpaid: number;
};

export async function offerOne(
  env: Env,
  entry: { id: string; user_id: string; treatment_id: string; from_date: string; to_date: string },
  run: OfferRun,
): Promise<boolean> {
  const { now, expiresAt } = run;
  for (const date of datesBetween(entry.from_date, entry.to_date, MAX_WAITLIST_DAYS)) {
    if (date < run.today || bookingWindowProblem(env, date, now)) continue;
    let day = run.days.get(date);
    if (!day) {
      day = await readDay(env, date, now);
      run.days.set(date, day);
    }
    const treatment = day.treatments.find((t) => t.id === entry.treatment_id);
    if (treatment?.active !== 1) return false;
    const starts = freeStarts(env, day, treatment, firstBookableMinute(env, date, now)).filter(
      (start) =>
        clinicInstant(env, date, start).getTime() > expiresAt.getTime() &&
        !run.offered.has(offeredKey(entry.id, date, start)),
    );
    for (const start of starts) {
      const outcome = await holdForEntry(env, entry, { treatment, date, start, day, run });
      if (outcome === 'held') return true;
      if (outcome === 'stop') return false;
    }
  }
  return false;
}

/** Tries to hold `start` for an entry with each free pair: 'held', 'next' (try another start) or 'stop' (this entry gets nothing now). */
export async function holdForEntry(
  env: Env,
  entry: { id: string; user_id: string },
  at: { treatment: TreatmentRow; date: string; start: number; day: Day; run: OfferRun },
): Promise<'held' | 'next' | 'stop'> {
  const { treatment, date, start, day, run } = at;
  const cells = cellsOf(start, treatment.duration_minutes);
  for (const pair of freePairs(day, treatment, start)) {
    const claim = claimOf(date, pair, entry.user_id, cells);
    const id = crypto.randomUUID();
    try {
      const [, , inserted] = await env.DB.batch([
        dropDeadClaims(env.DB, date, run.now),
        checkPlacement(
          env.DB,
          placementOf(
            {
              treatmentId: treatment.id,
              appointmentDate: date,
              startMinute: start,
              durationMinutes: treatment.duration_minutes,
              ...pair,
              userId: entry.user_id,
              priceCents: treatment.price_cents,
            },
            { maxUnpaid: run.maxUnpaid, now: run.now, startsAt: clinicInstant(env, date, start) },
          ),
        ),
        ...insertOffer(
          env.DB,
          {
            id,
            entryId: entry.id,
            treatmentId: treatment.id,
            day: date,
            startMinute: start,
            durationMinutes: treatment.duration_minutes,
            slot: slotLabel(start, treatment.duration_minutes),
            doctorId: pair.doctorId,
            chairId: pair.chairId,
            expiresAt: run.expiresAt,
            now: run.now,
          },
          claim,
        ),
        offerEvent(env.DB, 'offer.made', id, { actor: { system: 'system' }, at: run.now, ifChanged: false }),
      ]);
      if ((inserted?.meta.changes ?? 0) === 0) return 'stop'; // the patient left the line meanwhile
    } catch (error) {
      const rule = brokenRule(error);
      if ((rule && PAIR_RULES.has(rule)) || violates(error, ONE_CLAIM_PER_CELL)) continue;
      if (rule === 'patient_busy') return 'next';
      if (rule === 'hold_limit' || violates(error, ONE_OPEN_OFFER)) return 'stop';
      if (rule) return 'next';
      throw error;
    }
    take(day, claim.resources, cells);
    return 'held';
  }
  return 'next';
}

/**
 * Accepts an open offer for its patient: books the held time in one batch whose placement check
 * makes sure the offer is still open and unexpired and that every rule still holds (a closure added
 * since, a doctor or chair deleted, the patient's own other visit): the booking, the offer closed,
 * the entry booked, the hold given up for the booking's claims, the confirmation. Of several
 * simultaneous accepts one books. Answers the booking's id.
 */
export async function accept(
  env: Env,
  patient: Patient,
  offer: OfferRow,
  treatment: Pick<TreatmentRow, 'name' | 'payment' | 'deposit_percent'>,
): Promise<string> {
  const now = clock();
  const rules = holdRules(env);
  const week = await openWeek(env);
  const priceCents = offer.price_cents ?? 0;
  const startsAt = clinicInstant(env, offer.day, offer.start_minute);
  const booking: NewBookingRow = {
    id: crypto.randomUUID(),
    treatmentId: offer.treatment_id,
    treatment: treatment.name,
    appointmentDate: offer.day,
    slot: offer.slot,
    startMinute: offer.start_minute,
    durationMinutes: offer.duration_minutes,
    doctorId: offer.doctor_id,
    chairId: offer.chair_id,
    userId: patient.id,
    patientName: patient.name,
    email: patient.email,
    phone: '',
    priceCents,
    createdAt: now.toISOString(),
    ...(await paymentTerms(
      env,
      { ...treatment, price_cents: priceCents },
      { now, startsAt, patientId: patient.id, week },
    )),
  };
  const pair = { doctorId: offer.doctor_id, chairId: offer.chair_id };
  const claim = claimOf(offer.day, pair, patient.id, cellsOf(offer.start_minute, offer.duration_minutes));
  try {
    await env.DB.batch([
      ...releaseLapsedHoldsInTheWay(env.DB, { userId: patient.id, treatmentId: offer.treatment_id, claim }, now),
      releasedEvents(env.DB, now),
      dropDeadClaims(env.DB, offer.day, now),
      checkPlacement(env.DB, placementOf(booking, { maxUnpaid: rules.maxUnpaid, now, startsAt, offerId: offer.id })),
      insertBooking(env.DB, booking),
      ...acceptOffer(env.DB, offer.id, booking.id),
      insertClaims(env.DB, booking.id, claim),
      bookingEvent(env.DB, 'booking.placed', booking.id, {
        actor: asPatient(patient),
        at: now,
        offerId: offer.id,
        payload: { by: 'offer' },
      }),
    ]);
  } catch (error) {
    const context = { byClinic: false, isoDate: offer.day, treatment: treatment.name, maxUnpaid: rules.maxUnpaid };
    throw conflictOf(error, context) ?? error;
  }
  return booking.id;
}

/** Declines an open offer: its held time goes to the next in line. Answers whether it was open. */
export async function decline(env: Env, offerId: string): Promise<boolean> {
  const [, declined] = await env.DB.batch([
    ...declineOffer(env.DB, offerId),
    offerEvent(env.DB, 'offer.declined', offerId, { actor: { system: 'system' }, at: clock() }),
  ]);
  return (declined?.meta.changes ?? 0) > 0;
}

/** A patient leaves the line: their open offer is withdrawn in the same batch. Answers whether they were waiting. */
export async function leave(env: Env, entryId: string, userId: string): Promise<boolean> {
  const [left] = await env.DB.batch([
    leaveEntry(env.DB, entryId, userId),
    ...withdrawOffersOfEntry(env.DB, entryId),
    timeFreedEvent(env.DB, { system: 'system' }, clock(), { why: 'waitlist.left' }),
  ]);
  return (left?.meta.changes ?? 0) > 0;
}
