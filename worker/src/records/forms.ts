import type {
  BookingForm,
  FormAnswered,
  FormAnswers,
  FormSaved,
  FormSummary,
  Questionnaire,
} from '../../../contract/forms.ts';
import { questionsOf, toQuestionnaire } from '../../../contract/questionnaire.ts';
import { bookingFor } from '../booking/bookings.ts';
import { bookingEvent } from '../booking/data/events.ts';
import { callerOf } from '../people/auth.ts';
import { clock } from '../platform/clock.ts';
import { type Actor, auditEntry, IF_CHANGED } from '../platform/data/audit.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, idempotencyKey, json } from '../platform/http.ts';
import { type Input, inputOf } from '../platform/input.ts';
import {
  ageAtVisit,
  type FormRow,
  type FormWrite,
  formById,
  formsOfBooking,
  insertForm,
  insertResponse,
  listForms,
  responseByKey,
  reviseForm,
  unknownTreatments,
} from './data/forms.ts';
import { answersOf, readAnswers, toResponse } from './questionnaire.ts';

function toSummary(row: FormRow): FormSummary {
  const questionnaire = JSON.parse(row.questionnaire) as Questionnaire;
  return {
    _id: row.id,
    title: row.title,
    version: row.current_version,
    renewMonths: row.renew_months,
    treatments: row.all_treatments === 1 ? 'all' : (JSON.parse(row.treatments) as string[]),
    items: questionsOf(questionnaire),
    questionnaire,
  };
}

/** GET /api/forms (admin): each form with its current version. */
export async function getForms(_request: Request, env: Env): Promise<Response> {
  return json((await listForms(env.DB)).map(toSummary));
}

/** The template as it is written: its treatments known, its questions a Questionnaire. */
async function formWrite(env: Env, id: string, template: Input<'POST /forms'>['body']): Promise<FormWrite> {
  if (template.treatments !== 'all') {
    const unknown = await unknownTreatments(env.DB, template.treatments);
    if (unknown.length > 0) throw new HttpError(400, `No such treatment: ${unknown.join(', ')}`);
  }
  return {
    id,
    title: template.title,
    renewMonths: template.renewMonths,
    treatments: template.treatments,
    questionnaire: toQuestionnaire(id, 1, template.title, template.items),
  };
}

/** POST /api/forms (admin): a new form, at version 1. */
export async function createForm(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const form = await formWrite(env, crypto.randomUUID(), inputOf(request, 'POST /forms').body);
  await env.DB.batch([
    ...insertForm(env.DB, form),
    auditEntry(env.DB, {
      actor: admin,
      action: 'form.saved',
      target: { type: 'form', id: form.id, name: form.title },
      after: { version: 1, questions: form.questionnaire.item.length },
    }),
  ]);
  return json({ acknowledged: true, _id: form.id, version: 1 } satisfies FormSaved, 201);
}

/** PUT /api/forms/:id (admin): the form's next version; answers given on older ones keep theirs. */
export async function updateForm(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const { params, body } = inputOf(request, 'PUT /forms/:id');
  const id = params.id;
  if (!(await formById(env.DB, id))) throw new HttpError(404, 'No such form');
  const form = await formWrite(env, id, body);
  const version = (param: (value: unknown) => string) => `(SELECT current_version FROM forms WHERE id = ${param(id)})`;
  const [changed] = await env.DB.batch([
    ...reviseForm(env.DB, form),
    auditEntry(env.DB, {
      actor: admin,
      action: 'form.saved',
      target: { type: 'form', id, name: form.title },
      after: { version, questions: form.questionnaire.item.length },
    }),
  ]);
  if (!changed?.meta.changes) throw new HttpError(404, 'No such form');
  const saved = await formById(env.DB, id);
  return json({ acknowledged: true, _id: id, version: saved?.current_version ?? 1 } satisfies FormSaved);
}

/**
 * The forms visit `bookingId` needs, each with where it stands, its questionnaire, and the answers
 * that count (or the last ones given, to pre-fill a form to renew).
 */
export async function formsOfVisit(env: Env, bookingId: string): Promise<BookingForm[]> {
  const [rows, patientAge] = await Promise.all([formsOfBooking(env.DB, bookingId), ageAtVisit(env.DB, bookingId)]);
  return rows.map(
    (row): BookingForm => ({
      _id: row.form_id,
      title: row.title,
      status: row.status,
      questionnaire: JSON.parse(row.questionnaire) as Questionnaire,
      answers: row.response ? answersOf(JSON.parse(row.response)) : null,
      answeredAt: row.answered_at,
      alerts: row.alerts ? (JSON.parse(row.alerts) as string[]) : [],
      patientAge,
    }),
  );
}

/** GET /api/bookings/:id/forms (the booking's account, or staff): formsOfVisit. */
export async function getBookingForms(request: Request, env: Env): Promise<Response> {
  const booking = await bookingFor(env, callerOf(request), inputOf(request, 'GET /bookings/:id/forms').params.id);
  return json(await formsOfVisit(env, booking.id));
}

/**
 * Saves answers to form `formId` of visit `booking` for `actor`, checked against the form's current
 * version (a missing required answer or a wrong type is a 400 naming the question), as a new
 * QuestionnaireResponse with the alerts they raise and, for a consent, the typed signature and its
 * time; its audit row in the same batch. `key` (an Idempotency-Key, scoped to its sender by the
 * caller) makes a repeat store nothing and answer as the first did.
 */
export async function saveFormAnswers(
  env: Env,
  answers: FormAnswers['answers'],
  booking: { id: string; user_id: string; patient_name: string },
  actor: Actor & { id: string },
  formId: string,
  key: string | null,
): Promise<FormAnswered> {
  const form = (await formsOfBooking(env.DB, booking.id)).find((row) => row.form_id === formId);
  if (!form) throw new HttpError(404, 'This visit needs no such form');
  const questionnaire = JSON.parse(form.questionnaire) as Questionnaire;
  const read = readAnswers(questionnaire, answers, { age: await ageAtVisit(env.DB, booking.id) });
  const id = crypto.randomUUID();
  const now = clock().toISOString();
  const [stored] = await env.DB.batch([
    insertResponse(env.DB, {
      id,
      formId,
      version: form.current_version,
      patientId: booking.user_id,
      bookingId: booking.id,
      response: toResponse(id, questionnaire, booking.user_id, read.answers, now),
      alerts: read.alerts,
      signedName: read.signedName,
      createdBy: actor.id,
      requestKey: key,
      createdAt: now,
    }),
    auditEntry(
      env.DB,
      {
        actor,
        action: 'form.answered',
        target: { type: 'booking', id: booking.id, name: `${booking.patient_name}: ${form.title}` },
        after: {
          form: form.title,
          version: form.current_version,
          ...(read.signedName ? { signedBy: read.signedName, signedAt: now } : {}),
          ...(read.alerts.length > 0 ? { alerts: read.alerts } : {}),
        },
      },
      IF_CHANGED,
    ),
    // The visit's forms changed: one event, when the answers were stored (not for a repeat).
    bookingEvent(env.DB, 'booking.form_answered', booking.id, {
      actor,
      at: new Date(now),
      payload: { formId, version: form.current_version },
      ifChanged: true,
    }),
  ]);
  if (!stored?.meta.changes && key) {
    // Sent before (the outbox retried after a lost answer): the same answer again.
    const earlier = await responseByKey(env.DB, key);
    if (earlier) {
      return {
        acknowledged: true,
        insertedId: earlier.id,
        status: 'filled',
        alerts: JSON.parse(earlier.alerts) as string[],
      };
    }
  }
  return { acknowledged: true, insertedId: id, status: 'filled', alerts: read.alerts };
}

/**
 * PUT /api/bookings/:id/forms/:formId (the booking's account, or staff): saveFormAnswers, an
 * Idempotency-Key scoped to the caller: another patient's key is never this one, nor finds its answers.
 */
export async function answerForm(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const sent = idempotencyKey(request);
  const { params, body } = inputOf(request, 'PUT /bookings/:id/forms/:formId');
  const booking = await bookingFor(env, user, params.id);
  const key = sent === null ? null : `${user.id}:${sent}`;
  return json(await saveFormAnswers(env, body.answers, booking, user, params.formId, key));
}
