/**
 * The links in messages (issue 26): `<origin>/l/<token>` opens a page of the PWA, which reads
 * GET /api/links/:token (nothing changes on opening: mail scanners open links too) and acts with a
 * POST. A booking link confirms, asks for a call or cancels its booking, only while the booking is
 * active at the version the message was about; a recall link proposes three free times and books one.
 * Every action goes through the booking engine, as in the app.
 */

import { addCalendarDays, datesBetween, daysBetween } from '../../../contract/fields.ts';
import type {
  KioskStarted,
  LinkAction,
  LinkBooked,
  LinkDone,
  LinkForms,
  LinkInfo,
  Proposal,
} from '../../../contract/links.ts';
import { slotLabel } from '../../../contract/slot-label.ts';
import { type BookingRow, bookingById, freeCancellationUntil, toBooking } from '../booking/data/bookings.ts';
import { cancel, insideWindowMessage } from '../booking/engine/cancel.ts';
import { respond } from '../booking/engine/marks.ts';
import { place } from '../booking/engine/place.ts';
import { isWantedTime } from '../booking/engine/plan.ts';
import { freePairs, freeStarts, readDay } from '../booking/schedule.ts';
import { readPolicy } from '../clinic/data/cancellation-policy.ts';
import { doctorNames } from '../clinic/data/doctors.ts';
import { messageSettings } from '../clinic/data/message-settings.ts';
import {
  bookingWindowProblem,
  clinicInstant,
  clinicNow,
  displayDate,
  firstBookableMinute,
} from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, idempotencyKey, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { spend } from '../platform/rate-limit.ts';
import { formsOfVisit, saveFormAnswers } from '../records/forms.ts';
import { type RecallRow, recallById } from './data/recalls.ts';
import { type LinkClaims, readLink, signLink } from './link-tokens.ts';

export const VISIT_CHANGED =
  'This visit changed after the message was sent (it was moved, cancelled or released), so this link no longer acts on it. See My Appointments for your bookings.';
export const RECALL_DONE = 'This visit is booked already, or the clinic closed this reminder. See My Appointments.';
const WRONG_ACTION: Record<LinkAction, string> = {
  confirm: 'This link confirms a visit',
  callback: 'This link asks the clinic to call you',
  cancel: 'This link cancels a visit',
  book: 'This link books a visit',
  forms: 'This link opens a visit’s forms',
};

/** The booking a link acts on: active, not released, at the link's version; 410 otherwise. */
async function linkedBooking(env: Env, claims: LinkClaims, now: Date): Promise<BookingRow> {
  const row = await bookingById(env.DB, claims.id, now);
  if (row?.status !== 'active' || row.expired || row.version !== claims.version) {
    throw new HttpError(410, VISIT_CHANGED);
  }
  return row;
}

/** The recall a link books: open; once booked, the link says what was booked and when (410). */
async function openRecall(env: Env, claims: LinkClaims): Promise<RecallRow> {
  const recall = await recallById(env.DB, claims.id);
  if (!recall) throw new HttpError(410, RECALL_DONE);
  if (recall.status === 'due' || recall.status === 'contacted') return recall;
  const booked = recall.booking_id ? await bookingById(env.DB, recall.booking_id, clock()) : null;
  if (recall.status === 'booked' && booked) {
    const doctor = booked.doctor_name ? ` with ${booked.doctor_name}` : '';
    throw new HttpError(
      410,
      `This visit is booked: ${booked.treatment} on ${displayDate(booked.appointment_date)} at ${booked.slot}${doctor}. See My Appointments to change it.`,
    );
  }
  throw new HttpError(410, RECALL_DONE);
}

/** Whether the patient may still cancel online now (a paid booking only before the free-cancellation deadline). */
async function cancellable(env: Env, row: BookingRow, now: Date): Promise<{ ok: boolean; hours: number }> {
  const hours = (await readPolicy(env.DB)).freeCancellationHours;
  const started = clinicInstant(env, row.appointment_date, row.start_minute).getTime() <= now.getTime();
  const ok = !started && (row.paid === 0 || now.getTime() < freeCancellationUntil(env, row, hours).getTime());
  return { ok, hours };
}

/** The parts of a day a recall's three times spread over: a morning, a midday and an evening. */
const BANDS = [
  { from: 0, until: 12 * 60 },
  { from: 12 * 60, until: 15 * 60 },
  { from: 15 * 60, until: 24 * 60 },
];

/**
 * Three free times around a recall's due date, for a patient who did not choose them: on three
 * different days as close to the due date as can be (on or after it first, never more than a week
 * before it, not before tomorrow, within four weeks after it and the booking horizon), one in the
 * morning, one at midday and one in the evening, each with the patient's last doctor when free, else
 * a doctor the other times do not have. The last doctor's come first.
 */
export async function proposals(env: Env, recall: RecallRow, now: Date): Promise<Proposal[]> {
  const today = clinicNow(env, now).date;
  const earliest = [addCalendarDays(recall.due_date, -7), addCalendarDays(today, 1)].sort().at(-1) ?? today;
  const latest = addCalendarDays([recall.due_date, today].sort().at(-1) ?? today, 28);
  // Nearest the due date first, a day after it before the day as far before it.
  const distance = (date: string) => {
    const days = daysBetween(recall.due_date, date);
    return days >= 0 ? 2 * days : -2 * days + 1;
  };
  const candidates = datesBetween(earliest, latest, 64)
    .filter((date) => !bookingWindowProblem(env, date, now))
    .sort((a, b) => distance(a) - distance(b));
  const names = await doctorNames(env.DB);
  const found: (Proposal & { lastDoctor: boolean; doctorId: string | null })[] = [];
  const days = new Map<string, Awaited<ReturnType<typeof readDay>>>();
  for (const band of BANDS) {
    for (const date of candidates.slice(0, 21)) {
      if (found.some((p) => p.appointmentDate === date)) continue;
      const day = days.get(date) ?? (await readDay(env, date, now));
      days.set(date, day);
      const treatment = day.treatments.find((t) => t.id === recall.treatment_id && t.active === 1);
      if (!treatment || !day.hours) continue;
      const starts = freeStarts(env, day, treatment, firstBookableMinute(env, date, now)).filter(
        (start) => start >= band.from && start < band.until,
      );
      const used = new Set(found.map((p) => p.doctorId));
      const choice =
        starts.flatMap((start) =>
          freePairs(day, treatment, start)
            .filter((pair) => pair.doctorId === recall.last_doctor_id)
            .map((pair) => ({ start, doctorId: pair.doctorId })),
        )[0] ??
        starts.flatMap((start) =>
          freePairs(day, treatment, start)
            .filter((pair) => !used.has(pair.doctorId))
            .map((pair) => ({ start, doctorId: pair.doctorId })),
        )[0] ??
        starts.map((start) => ({ start, doctorId: freePairs(day, treatment, start)[0]?.doctorId ?? null }))[0];
      if (!choice) continue;
      found.push({
        appointmentDate: date,
        date: displayDate(date),
        slot: slotLabel(choice.start, treatment.duration_minutes),
        doctor: choice.doctorId ? (names.get(choice.doctorId) ?? null) : null,
        doctorId: choice.doctorId,
        lastDoctor: choice.doctorId !== null && choice.doctorId === recall.last_doctor_id,
      });
      break;
    }
  }
  return found
    .sort((a, b) => Number(b.lastDoctor) - Number(a.lastDoctor) || a.appointmentDate.localeCompare(b.appointmentDate))
    .map(({ lastDoctor: _, doctorId: __, ...proposal }) => proposal);
}

/** GET /api/links/:token: what the link is for, and what it would act on. Changes nothing. */
export async function getLink(request: Request, env: Env): Promise<Response> {
  const now = clock();
  const claims = await readLink(env, inputOf(request, 'GET /links/:token').params.token, now);
  if (claims.action === 'book') {
    const recall = await openRecall(env, claims);
    return json({
      kind: 'recall',
      action: 'book',
      patientName: recall.patient_name,
      recall: {
        _id: recall.id,
        treatment: recall.treatment,
        dueDate: recall.due_date,
        price: recall.price_cents / 100,
      },
      proposals: await proposals(env, recall, now),
    } satisfies LinkInfo);
  }
  const row = await linkedBooking(env, claims, now);
  const [{ ok }, settings] = await Promise.all([cancellable(env, row, now), messageSettings(env.DB)]);
  return json({
    kind: 'booking',
    action: claims.action,
    patientName: row.patient_name,
    booking: {
      _id: row.id,
      treatment: row.treatment,
      date: displayDate(row.appointment_date),
      appointmentDate: row.appointment_date,
      slot: row.slot,
      doctor: row.doctor_name,
      confirmation: row.confirmation,
      canCancel: ok,
      clinicPhone: settings.clinic_phone,
    },
  } satisfies LinkInfo);
}

/** What a patient's answer did: done, or refused inside the cancellation window (`hours` before, call `phone`). */
export type Acted =
  | { done: 'cancelled' | 'confirmed' | 'callback' }
  | { insideWindow: { hours: number; phone: string } };

/** What a link's page says it did (in English, as the app's pages are). */
const DONE: Record<'cancelled' | 'confirmed' | 'callback', string> = {
  cancelled: 'Your visit is cancelled. A paid visit is refunded in full; the confirmation is on its way by mail.',
  confirmed: 'Thank you: the clinic knows you are coming.',
  callback: 'Thank you: the clinic will call you to talk about this visit.',
};

/**
 * What a patient's answer does to a booking (a link or an SMS reply): confirm or ask for a call
 * (once, however often it arrives), or cancel under the app's rules (inside the window: call us).
 * Each caller says the outcome in its own words.
 */
export async function actOn(
  env: Env,
  row: BookingRow,
  version: number,
  action: 'confirm' | 'callback' | 'cancel',
): Promise<Acted> {
  const now = clock();
  if (action === 'cancel') {
    const { ok, hours } = await cancellable(env, row, now);
    if (!ok) return { insideWindow: { hours, phone: (await messageSettings(env.DB)).clinic_phone } };
    await cancel(env, { id: row.account_id, email: row.email, role: 'patient' }, row);
    return { done: 'cancelled' };
  }
  await respond(env, row, version, action === 'confirm' ? 'confirmed' : 'callback');
  return { done: action === 'confirm' ? 'confirmed' : 'callback' };
}

function linkAction(action: 'confirm' | 'callback' | 'cancel') {
  return async (request: Request, env: Env): Promise<Response> => {
    const now = clock();
    const claims = await readLink(env, inputOf(request, `POST /links/:token/${action}`).params.token, now);
    if (claims.action !== action) throw new HttpError(400, `${WRONG_ACTION[claims.action]}, not this`);
    await spend(env.BOOKING_LIMITER, `link:${claims.id}`, 'requests for this visit');
    const row = await linkedBooking(env, claims, now);
    const acted = await actOn(env, row, claims.version, action);
    if ('insideWindow' in acted) {
      throw new HttpError(409, `${insideWindowMessage(acted.insideWindow.hours)} at ${acted.insideWindow.phone}`);
    }
    return json({ acknowledged: true, message: DONE[acted.done] } satisfies LinkDone);
  };
}

/** POST /api/links/:token/confirm, /callback, /cancel. */
export const confirmByLink = linkAction('confirm');
export const callbackByLink = linkAction('callback');
export const cancelByLink = linkAction('cancel');

/**
 * POST /api/links/:token/book {appointmentDate, slot}: books the recall's treatment for its patient
 * at that time (with their last doctor when free), under every rule of a booking; the recall is
 * booked by the same batch (a trigger).
 */
export async function bookByLink(request: Request, env: Env): Promise<Response> {
  const now = clock();
  const input = inputOf(request, 'POST /links/:token/book');
  const claims = await readLink(env, input.params.token, now);
  if (claims.action !== 'book') throw new HttpError(400, `${WRONG_ACTION[claims.action]}, not this`);
  const choice = input.body;
  await spend(env.BOOKING_LIMITER, claims.id, 'booking requests');
  const recall = await openRecall(env, claims);
  const wanted = { treatment: recall.treatment_id, ...choice };
  let doctorId: string | undefined;
  if (recall.last_doctor_id) {
    const day = await readDay(env, choice.appointmentDate, now);
    const treatment = day.treatments.find((t) => t.id === recall.treatment_id);
    const start = treatment
      ? freeStarts(env, day, treatment, 0).find((s) => isWantedTime(choice, s, treatment.duration_minutes))
      : undefined;
    if (
      treatment &&
      start !== undefined &&
      freePairs(day, treatment, start).some((p) => p.doctorId === recall.last_doctor_id)
    ) {
      doctorId = recall.last_doctor_id;
    }
  }
  const booked = await place(
    env,
    { id: recall.patient_id, name: recall.patient_name, email: recall.email },
    { ...wanted, phone: recall.phone },
    doctorId ? { doctorId } : {},
  );
  const [row, policy] = await Promise.all([bookingById(env.DB, booked.id, now), readPolicy(env.DB)]);
  const deadlines = row ? toBooking(row, env, policy) : null;
  return json(
    {
      acknowledged: true,
      insertedId: booked.id,
      message: `Booked: ${recall.treatment} on ${displayDate(choice.appointmentDate)}, ${row?.slot ?? choice.slot}`,
      payBy: booked.holdUntil,
      doctor: row?.doctor_name ?? null,
      freeCancellationUntil: deadlines?.freeCancellationUntil ?? now.toISOString(),
      rescheduleUntil: deadlines?.rescheduleUntil ?? now.toISOString(),
    } satisfies LinkBooked,
    201,
  );
}

/** How long the kiosk's token lasts: the time a patient needs at the desk's tablet, with room to spare. */
const KIOSK_HOURS = 2;

/**
 * POST /api/bookings/:id/kiosk (admin): the token the front desk's tablet holds while a patient
 * fills in their forms there: a forms link for this visit at its version, for two hours. The tablet
 * then signs the staff out; the token reaches nothing but this visit's forms.
 */
export async function startKiosk(request: Request, env: Env): Promise<Response> {
  const now = clock();
  const row = await bookingById(env.DB, inputOf(request, 'POST /bookings/:id/kiosk').params.id, now);
  if (!row) throw new HttpError(404, 'No such booking');
  if (row.status !== 'active' || row.expired) throw new HttpError(409, VISIT_CHANGED);
  const expiresAt = Math.floor(now.getTime() / 1000) + KIOSK_HOURS * 3600;
  const token = await signLink(env, { action: 'forms', id: row.id, version: row.version, expiresAt });
  return json({ token, expiresAt: new Date(expiresAt * 1000).toISOString() } satisfies KioskStarted);
}

/** The visit a forms link (or the kiosk's token) opens. */
async function formsVisit(env: Env, token: string, now: Date): Promise<BookingRow> {
  const claims = await readLink(env, token, now);
  if (claims.action !== 'forms') throw new HttpError(400, `${WRONG_ACTION[claims.action]}, not this`);
  return linkedBooking(env, claims, now);
}

/** GET /api/links/:token/forms: the visit and its forms, for whoever holds the link (no account). */
export async function getLinkForms(request: Request, env: Env): Promise<Response> {
  const row = await formsVisit(env, inputOf(request, 'GET /links/:token/forms').params.token, clock());
  return json({
    patientName: row.patient_name,
    treatment: row.treatment,
    appointmentDate: displayDate(row.appointment_date),
    slot: row.slot,
    forms: await formsOfVisit(env, row.id),
  } satisfies LinkForms);
}

/**
 * PUT /api/links/:token/forms/:formId: the answers, saved as the patient's (the booking's account
 * is the actor); an Idempotency-Key is scoped to the visit.
 */
export async function answerLinkForm(request: Request, env: Env): Promise<Response> {
  const { params, body } = inputOf(request, 'PUT /links/:token/forms/:formId');
  const row = await formsVisit(env, params.token, clock());
  await spend(env.BOOKING_LIMITER, `link:${row.id}`, 'requests for this visit');
  const sent = idempotencyKey(request);
  const actor = { id: row.account_id, email: row.email, role: 'patient' } as const;
  const key = sent === null ? null : `link:${row.id}:${sent}`;
  return json(await saveFormAnswers(env, body.answers, row, actor, params.formId, key));
}
