/**
 * The waitlist (issue 16): a patient waits for a treatment on a date or any day of a range. When a
 * matching time frees up, the first in line gets an offer by mail; the time is held for them by
 * claims with an expiry, so nobody else can book it; accepting books it (one batch: of any number
 * of simultaneous accepts, one books), declining or expiry passes it to the next in line.
 */
import { datesBetween } from '../../../contract/fields.ts';
import {
  MAX_WAITLIST_DAYS,
  type NewWaitlistEntry,
  type OfferAccepted,
  type OfferDeclined,
  type WaitlistEntry,
  type WaitlistJoined,
  type WaitlistLeft,
  type WaitlistOffer,
} from '../../../contract/messages.ts';
import { scheduleTreatments, type TreatmentRow, treatmentState } from '../clinic/data/treatments.ts';
import { callerOf, verifiedCallerOf } from '../people/auth.ts';
import {
  bookingWindowProblem,
  clinicInstant,
  clinicNow,
  displayDate,
  firstBookableMinute,
} from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { spend } from '../platform/rate-limit.ts';
import {
  entriesOf,
  insertEntry,
  MAX_WAITING_ENTRIES,
  type OfferRow,
  ONE_ENTRY_PER_WAIT,
  offerById,
} from './data/waitlist.ts';
import { accept, decline, leave } from './engine/offers.ts';
import { closedFor, freeStarts, readDay } from './schedule.ts';

async function treatmentByIdOrName(env: Env, idOrName: string): Promise<TreatmentRow | undefined> {
  const { results } = await scheduleTreatments(env.DB).all<TreatmentRow>();
  return results.find((t) => t.id === idOrName || t.name === idOrName);
}

/** POST /api/waitlist: the signed-in patient waits for a treatment on a date or any day of a range. */
export async function joinWaitlist(request: Request, env: Env): Promise<Response> {
  const user = verifiedCallerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const body: NewWaitlistEntry = inputOf(request, 'POST /waitlist').body;
  const to = body.to ?? body.from;
  const problem = bookingWindowProblem(env, body.from) ?? bookingWindowProblem(env, to);
  if (problem) throw new HttpError(400, problem);
  const treatment = await treatmentByIdOrName(env, body.treatment);
  if (!treatment) throw new HttpError(404, `No such treatment: ${body.treatment}`);
  if (treatment.active !== 1) throw new HttpError(400, `${treatment.name} is no longer offered`);
  const dates = to === body.from ? displayDate(body.from) : `${displayDate(body.from)} to ${displayDate(to)}`;
  // The waitlist is for times that free up: a time free now is to be booked, not waited for, and a
  // closed day frees nothing.
  const now = clock();
  const closed: string[] = [];
  const days = datesBetween(body.from, to, MAX_WAITLIST_DAYS);
  for (const date of days) {
    const day = await readDay(env, date, now);
    if (freeStarts(env, day, treatment, firstBookableMinute(env, date, now)).length > 0) {
      throw new HttpError(409, `${treatment.name} has free times on ${displayDate(date)}; please book one of them`);
    }
    const reason = closedFor(day, treatment);
    if (reason) closed.push(`${displayDate(date)}: ${reason}`);
  }
  if (closed.length === days.length) {
    throw new HttpError(409, `Closed on ${closed.join('; ')}. No time can free up then; please choose another day`);
  }
  const id = crypto.randomUUID();
  let inserted: number;
  try {
    const entry = { id, userId: user.id, treatmentId: treatment.id, from: body.from, to, now };
    ({ changes: inserted } = (await insertEntry(env.DB, { ...entry, today: clinicNow(env, now).date }).run()).meta);
  } catch (error) {
    if (violates(error, ONE_ENTRY_PER_WAIT))
      throw new HttpError(409, `You are already on the waitlist for ${treatment.name} on ${dates}`);
    throw error;
  }
  if (inserted === 0) {
    throw new HttpError(
      409,
      `You are already waiting for ${MAX_WAITING_ENTRIES} times; leave one of them before joining the waitlist again`,
    );
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
  const user = callerOf(request);
  const now = clock();
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
export async function leaveWaitlist(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  if (!(await leave(env, inputOf(request, 'DELETE /waitlist/:id').params.id, user.id)))
    throw new HttpError(404, 'No such waitlist entry');
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
      return new HttpError(410, 'This offer was withdrawn: you left the waitlist, or the clinic changed its schedule');
    default:
      return new HttpError(410, 'This offer has expired; the time went to the next patient in line');
  }
}

/** GET /api/waitlist/offers/:id: the offer page's offer. */
export async function getOffer(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const offer = await ownOffer(env, user.id, inputOf(request, 'GET /waitlist/offers/:id').params.id);
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
    status: statusAt(offer, clock()),
    bookingId: offer.booking_id,
  } satisfies WaitlistOffer);
}

/**
 * POST /api/waitlist/offers/:id/accept: books the held time for the offer's patient, in one batch
 * that books only while the offer is open and not expired; the booking takes the cells the hold gave up.
 */
export async function acceptWaitlistOffer(request: Request, env: Env): Promise<Response> {
  const user = verifiedCallerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const offer = await ownOffer(env, user.id, inputOf(request, 'POST /waitlist/offers/:id/accept').params.id);
  const status = statusAt(offer, clock());
  if (status !== 'open') throw closedOffer(status);
  const treatment = await treatmentState(env.DB, offer.treatment_id);
  if (!treatment?.active) throw new HttpError(400, `${offer.treatment ?? 'This treatment'} is no longer offered`);
  let id: string;
  try {
    id = await accept(env, user, offer, treatment);
  } catch (error) {
    // Closed between the read and the batch: say how, as a first read would have.
    if (error instanceof HttpError && error.status === 410) {
      const latest = await offerById(env.DB, offer.id);
      throw closedOffer(latest ? statusAt(latest, clock()) : 'expired');
    }
    throw error;
  }
  return json({ acknowledged: true, insertedId: id, message: 'Booking confirmed' } satisfies OfferAccepted, 201);
}

/** POST /api/waitlist/offers/:id/decline: the time goes to the next in line; the patient stays on the waitlist. */
export async function declineWaitlistOffer(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  await spend(env.BOOKING_LIMITER, user.id, 'booking requests');
  const offer = await ownOffer(env, user.id, inputOf(request, 'POST /waitlist/offers/:id/decline').params.id);
  const status = statusAt(offer, clock());
  if (status !== 'open') throw closedOffer(status);
  if (!(await decline(env, offer.id))) {
    const latest = await offerById(env.DB, offer.id);
    throw closedOffer(latest ? statusAt(latest, clock()) : 'expired');
  }
  return json({
    acknowledged: true,
    message: 'Offer declined; the time goes to the next patient in line',
  } satisfies OfferDeclined);
}
