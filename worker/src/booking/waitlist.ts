/**
 * The waitlist (issue 16): a patient waits for a treatment on a date or any day of a range. When a
 * matching time frees up, the first in line gets an offer by mail; the time is held for them by
 * claims with an expiry, so nobody else can book it; accepting books it (one batch: of any number
 * of simultaneous accepts, one books), declining or expiry passes it to the next in line.
 */
import {
  type NewWaitlistEntry,
  NewWaitlistEntry as NewWaitlistEntrySchema,
  type OfferAccepted,
  type OfferDeclined,
  type WaitlistEntry,
  type WaitlistJoined,
  type WaitlistLeft,
  type WaitlistOffer,
} from '../../../contract/messages.ts';
import { slotLabel } from '../../../contract/slot-label.ts';
import { scheduleTreatments, type TreatmentRow, treatmentState } from '../clinic/data/treatments.ts';
import { messageSettings } from '../messages/data/message-settings.ts';
import { queueOfferMail } from '../messages/data/outbox.ts';
import { bookingConfirmed, timeFreed } from '../messages/messages.ts';
import { requireUser, requireVerifiedUser } from '../people/auth.ts';
import {
  bookingWindowProblem,
  clinicInstant,
  clinicNow,
  displayDate,
  firstBookableMinute,
} from '../platform/clinic-time.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json, readJson } from '../platform/http.ts';
import { unpaidLimitMessage } from './bookings.ts';
import { insertBooking, type NewBookingRow, ONE_BOOKING_PER_PATIENT } from './data/bookings.ts';
import { chairResource, doctorResource, dropDeadClaims, insertClaims, ONE_CLAIM_PER_CELL } from './data/claims.ts';
import {
  acceptOffer,
  declineOffer,
  entriesInLine,
  entriesOf,
  expireOffers,
  insertEntry,
  insertOffer,
  leaveEntry,
  type OfferRow,
  ONE_ENTRY_PER_WAIT,
  offerById,
  offeredKey,
  pastOffers,
  withdrawOffersOf,
} from './data/waitlist.ts';
import { holdEnd, holdRules } from './holds.ts';
import { cellsOf, type Day, freePairs, freeStarts, readDay } from './schedule.ts';

type Params = { params: Record<string, string> };

/** A waitlist offer's constraint: one open offer per entry. */
const ONE_OPEN_OFFER = { table: 'waitlist_offers', columns: ['entry_id'] } as const;
const LINE_LIMIT = 200;
const OFFERS_PER_RUN = 50;

/** Every ISO date from `from` to `to`, inclusive. */
function datesFrom(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let t = Date.parse(`${from}T12:00:00Z`); t <= Date.parse(`${to}T12:00:00Z`); t += 86_400_000) {
    dates.push(new Date(t).toISOString().slice(0, 10));
  }
  return dates;
}

/** Marks a new claim's cells taken in a day read before it, so the next offer of the run looks elsewhere. */
function take(day: Day, resources: string[], cells: { firstCell: number; lastCell: number }): void {
  for (const resource of resources) {
    const taken = day.taken.get(resource) ?? new Uint8Array(96);
    day.taken.set(resource, taken);
    for (let cell = cells.firstCell; cell <= cells.lastCell; cell++) taken[cell] = 1;
    day.load.set(resource, (day.load.get(resource) ?? 0) + cells.lastCell - cells.firstCell + 1);
  }
}

/**
 * Offers freed times to the waitlist at `now`: first marks the offers that expired, then, for each
 * entry in line (oldest first) without an open offer, the earliest free start of its treatment on
 * its dates that starts after the hold would end and was not offered to it before, held for its
 * doctor and chair until the hold ends, with the offer's mail queued in the same batch. Answers
 * how many offers it made.
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
  const holdMs = settings.offer_hold_minutes * 60_000;
  const expiresAt = new Date(now.getTime() + holdMs);
  const days = new Map<string, Day>();
  let made = 0;
  for (const entry of line) {
    if (made >= OFFERS_PER_RUN) break;
    if (await offerOne(env, entry, { today, now, expiresAt, offered, days })) made += 1;
  }
  return made;
}

async function offerOne(
  env: Env,
  entry: { id: string; treatment_id: string; from_date: string; to_date: string },
  run: { today: string; now: Date; expiresAt: Date; offered: Set<string>; days: Map<string, Day> },
): Promise<boolean> {
  const { now, expiresAt } = run;
  for (const date of datesFrom(entry.from_date, entry.to_date)) {
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
      const cells = cellsOf(start, treatment.duration_minutes);
      for (const pair of freePairs(day, treatment, start)) {
        const resources = [doctorResource(pair.doctorId), chairResource(pair.chairId)];
        const id = crypto.randomUUID();
        try {
          const [, inserted] = await env.DB.batch([
            dropDeadClaims(env.DB, date, now),
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
                expiresAt,
                now,
              },
              { resources, ...cells },
            ),
            queueOfferMail(env.DB, id, now),
          ]);
          if ((inserted?.meta.changes ?? 0) === 0) return false; // the patient left the line meanwhile
        } catch (error) {
          if (violates(error, ONE_CLAIM_PER_CELL)) continue; // booked meanwhile: the next pair
          if (violates(error, ONE_OPEN_OFFER)) return false; // another run offered them a time
          throw error;
        }
        take(day, resources, cells);
        return true;
      }
    }
  }
  return false;
}

async function treatmentByIdOrName(env: Env, idOrName: string): Promise<TreatmentRow | undefined> {
  const { results } = await scheduleTreatments(env.DB).all<TreatmentRow>();
  return results.find((t) => t.id === idOrName || t.name === idOrName);
}

/** POST /api/waitlist: the signed-in patient waits for a treatment on a date or any day of a range. */
export async function joinWaitlist(request: Request, env: Env): Promise<Response> {
  const user = await requireVerifiedUser(request, env);
  const body: NewWaitlistEntry = await readJson(request, NewWaitlistEntrySchema);
  const to = body.to ?? body.from;
  const problem = bookingWindowProblem(env, body.from) ?? bookingWindowProblem(env, to);
  if (problem) throw new HttpError(400, problem);
  const treatment = await treatmentByIdOrName(env, body.treatment);
  if (!treatment) throw new HttpError(404, `No such treatment: ${body.treatment}`);
  if (treatment.active !== 1) throw new HttpError(400, `${treatment.name} is no longer offered`);
  const dates = to === body.from ? displayDate(body.from) : `${displayDate(body.from)} to ${displayDate(to)}`;
  // The waitlist is for times that free up: a time free now is to be booked, not waited for.
  const now = new Date();
  for (const date of datesFrom(body.from, to)) {
    const day = await readDay(env, date, now);
    if (freeStarts(env, day, treatment, firstBookableMinute(env, date, now)).length > 0) {
      throw new HttpError(409, `${treatment.name} has free times on ${displayDate(date)}; please book one of them`);
    }
  }
  const id = crypto.randomUUID();
  try {
    await insertEntry(env.DB, {
      id,
      userId: user.id,
      treatmentId: treatment.id,
      from: body.from,
      to,
      now,
    }).run();
  } catch (error) {
    if (violates(error, ONE_ENTRY_PER_WAIT))
      throw new HttpError(409, `You are already on the waitlist for ${treatment.name} on ${dates}`);
    throw error;
  }
  return json(
    {
      acknowledged: true,
      insertedId: id,
      message: `You are on the waitlist for ${treatment.name} on ${dates}`,
    } satisfies WaitlistJoined,
    201,
  );
}

/** GET /api/waitlist: the signed-in patient's entries still waiting, with any offer open for them. */
export async function listWaitlist(request: Request, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const now = new Date();
  const rows = await entriesOf(env.DB, user.id, clinicNow(env, now).date, now);
  return json(
    rows.map(
      (row): WaitlistEntry => ({
        _id: row.id,
        treatmentId: row.treatment_id,
        treatment: row.treatment ?? 'A treatment no longer offered',
        from: row.from_date,
        to: row.to_date,
        createdAt: row.created_at,
        offer:
          row.offer_id && row.offer_day && row.offer_slot && row.offer_expires_at
            ? {
                _id: row.offer_id,
                date: row.offer_day,
                appointmentDate: displayDate(row.offer_day),
                slot: row.offer_slot,
                expiresAt: row.offer_expires_at,
              }
            : null,
      }),
    ),
  );
}

/** DELETE /api/waitlist/:id: the patient leaves the line; a time held for them goes to the next. */
export async function leaveWaitlist(request: Request & Params, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const id = request.params.id ?? '';
  const [left, , withdrawn] = await env.DB.batch([leaveEntry(env.DB, id, user.id), ...withdrawOffersOf(env.DB, id)]);
  if ((left?.meta.changes ?? 0) === 0) throw new HttpError(404, 'No such waitlist entry');
  if ((withdrawn?.meta.changes ?? 0) > 0) timeFreed(env);
  return json({ acknowledged: true, deletedCount: 1 } satisfies WaitlistLeft);
}

/** An offer of the signed-in patient's (404 / 403 otherwise). */
async function ownOffer(env: Env, userId: string, id: string): Promise<OfferRow> {
  const offer = await offerById(env.DB, id);
  if (!offer) throw new HttpError(404, 'No such offer');
  if (offer.user_id !== userId) throw new HttpError(403, 'This offer is not yours');
  return offer;
}

const statusAt = (offer: OfferRow, now: Date): WaitlistOffer['status'] =>
  offer.status === 'open' && offer.expires_at <= now.toISOString() ? 'expired' : offer.status;

/** Why an offer that is no longer open cannot be answered. */
function closedOffer(status: WaitlistOffer['status']): HttpError {
  switch (status) {
    case 'accepted':
      return new HttpError(409, 'This offer was already accepted; the appointment is in My Appointments');
    case 'declined':
      return new HttpError(409, 'This offer was declined');
    case 'withdrawn':
      return new HttpError(410, 'This offer was withdrawn because you left the waitlist');
    default:
      return new HttpError(410, 'This offer has expired; the time went to the next patient in line');
  }
}

/** GET /api/waitlist/offers/:id: the offer page's offer. */
export async function getOffer(request: Request & Params, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const offer = await ownOffer(env, user.id, request.params.id ?? '');
  return json({
    _id: offer.id,
    treatment: offer.treatment ?? 'A treatment no longer offered',
    date: offer.day,
    appointmentDate: displayDate(offer.day),
    slot: offer.slot,
    startsAt: clinicInstant(env, offer.day, offer.start_minute).toISOString(),
    durationMinutes: offer.duration_minutes,
    price: (offer.price_cents ?? 0) / 100,
    doctor: offer.doctor_name,
    expiresAt: offer.expires_at,
    status: statusAt(offer, new Date()),
    bookingId: offer.booking_id,
  } satisfies WaitlistOffer);
}

/**
 * POST /api/waitlist/offers/:id/accept: books the held time for the offer's patient, in one batch
 * that books only while the offer is open and not expired; the booking takes the cells the hold gave up.
 */
export async function acceptWaitlistOffer(request: Request & Params, env: Env): Promise<Response> {
  const user = await requireVerifiedUser(request, env);
  const offer = await ownOffer(env, user.id, request.params.id ?? '');
  const now = new Date();
  const status = statusAt(offer, now);
  if (status !== 'open') throw closedOffer(status);
  const treatment = await treatmentState(env.DB, offer.treatment_id);
  if (!treatment?.active) throw new HttpError(400, `${offer.treatment ?? 'This treatment'} is no longer offered`);
  const rules = holdRules(env);
  const priceCents = offer.price_cents ?? 0;
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
    userId: user.id,
    patientName: user.name,
    email: user.email,
    phone: '',
    priceCents,
    createdAt: now.toISOString(),
    holdUntil:
      priceCents > 0 ? holdEnd(now, clinicInstant(env, offer.day, offer.start_minute), rules).toISOString() : null,
  };
  let inserted: number;
  try {
    const [first] = await env.DB.batch([
      insertBooking(env.DB, booking, rules.maxUnpaid, offer.id),
      ...acceptOffer(env.DB, offer.id, booking.id),
      dropDeadClaims(env.DB, offer.day, now),
      insertClaims(env.DB, {
        bookingId: booking.id,
        day: offer.day,
        resources: [doctorResource(offer.doctor_id), chairResource(offer.chair_id)],
        ...cellsOf(offer.start_minute, offer.duration_minutes),
      }),
      ...bookingConfirmed(env, { id: booking.id, appointmentDate: offer.day, startMinute: offer.start_minute }, now),
    ]);
    inserted = first?.meta.changes ?? 0;
  } catch (error) {
    if (violates(error, ONE_BOOKING_PER_PATIENT))
      throw new HttpError(409, `You already have a booking of ${treatment.name} on ${displayDate(offer.day)}`);
    if (violates(error, ONE_CLAIM_PER_CELL))
      throw new HttpError(409, 'This time was just taken; please choose another one');
    throw error;
  }
  if (inserted === 0) {
    const latest = await offerById(env.DB, offer.id);
    const now2 = new Date();
    if (!latest || statusAt(latest, now2) !== 'open') throw closedOffer(latest ? statusAt(latest, now2) : 'expired');
    throw new HttpError(409, unpaidLimitMessage(rules.maxUnpaid));
  }
  return json(
    { acknowledged: true, insertedId: booking.id, message: 'Booking confirmed' } satisfies OfferAccepted,
    201,
  );
}

/** POST /api/waitlist/offers/:id/decline: the time goes to the next in line; the patient stays on the waitlist. */
export async function declineWaitlistOffer(request: Request & Params, env: Env): Promise<Response> {
  const user = await requireUser(request, env);
  const offer = await ownOffer(env, user.id, request.params.id ?? '');
  const status = statusAt(offer, new Date());
  if (status !== 'open') throw closedOffer(status);
  const [declined] = await env.DB.batch(declineOffer(env.DB, offer.id));
  if ((declined?.meta.changes ?? 0) === 0) {
    const latest = await offerById(env.DB, offer.id);
    throw closedOffer(latest ? statusAt(latest, new Date()) : 'expired');
  }
  timeFreed(env);
  return json({
    acknowledged: true,
    message: 'Offer declined; the time goes to the next patient in line',
  } satisfies OfferDeclined);
}
