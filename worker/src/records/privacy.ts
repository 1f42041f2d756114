import type { UserDeleted } from '../../../contract/users.ts';
import { freeCancellationUntil, upcomingBookingsOf } from '../booking/data/bookings.ts';
import { strandClock, toStranded } from '../booking/data/strand.ts';
import { erase } from '../booking/engine/cancel.ts';
import { readPolicy } from '../clinic/data/cancellation-policy.ts';
import { bookingCancelled } from '../messages/messages.ts';
import { callerOf } from '../people/auth.ts';
import {
  dependantIds,
  type ExportRows,
  eraseRecords,
  exportRows,
  personalValuesOf,
  pseudonymiseAuditOf,
  pseudonymOf,
} from '../people/data/export.ts';
import { type User, userById } from '../people/data/users.ts';
import { clinicInstant } from '../platform/clinic-time.ts';
import { clock } from '../platform/clock.ts';
import { auditEntry, IF_CHANGED } from '../platform/data/audit.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { deleteReviewsOf } from './data/reviews.ts';

/** FHIR R4 Appointment.status for each of ours. */
const APPOINTMENT_STATUS: Record<string, string> = {
  active: 'booked',
  attended: 'fulfilled',
  no_show: 'noshow',
  cancelled: 'cancelled',
  moved: 'cancelled',
};

type Row = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The account's data as one JSON document (docs/product-booking.md#your-data): a FHIR R4 Bundle where a
 * resource fits (Patient, Appointment, QuestionnaireResponse), plain JSON for the rest.
 */
function exportDocument(env: Env, rows: ExportRows, now: Date) {
  const patients = rows.people.map((p) => ({
    resourceType: 'Patient',
    id: text(p.id),
    name: [{ text: text(p.name) }],
    telecom: [
      ...(p.guardian_id ? [] : [{ system: 'email', value: text(p.email) }]),
      ...(p.sms_phone ? [{ system: 'phone', value: text(p.sms_phone), use: 'mobile' }] : []),
    ],
    ...(p.birth_date ? { birthDate: text(p.birth_date) } : {}),
  }));
  const appointments = rows.bookings.map((b) => {
    const date = text(b.appointment_date);
    const start = Number(b.start_minute);
    return {
      resourceType: 'Appointment',
      id: text(b.id),
      status: APPOINTMENT_STATUS[text(b.status)] ?? 'booked',
      serviceType: [{ text: text(b.treatment) }],
      start: clinicInstant(env, date, start).toISOString(),
      end: clinicInstant(env, date, start + Number(b.duration_minutes)).toISOString(),
      created: text(b.created_at),
      ...(b.status === 'moved' ? { comment: 'Moved to another time' } : {}),
      ...(b.cancel_note ? { cancelationReason: { text: text(b.cancel_note) } } : {}),
      participant: [
        { actor: { reference: `Patient/${text(b.user_id)}`, display: text(b.patient_name) }, status: 'accepted' },
        ...(b.doctor ? [{ actor: { display: text(b.doctor) }, status: 'accepted' }] : []),
      ],
    };
  });
  const responses = rows.forms.map((f) => JSON.parse(f.response) as Row);
  return {
    exportedAt: now.toISOString(),
    about:
      'Everything the clinic holds about this account and the people in it: the FHIR R4 Bundle has the people, their appointments and their form answers; the rest is plain JSON.',
    fhir: {
      resourceType: 'Bundle',
      type: 'collection',
      timestamp: now.toISOString(),
      entry: [...patients, ...appointments, ...responses].map((resource) => ({
        fullUrl: `urn:uuid:${text(resource.id)}`,
        resource,
      })),
    },
    people: rows.people,
    bookings: rows.bookings,
    payments: rows.payments,
    reviews: rows.reviews,
    messages: rows.messages,
    recalls: rows.recalls,
    waitlist: rows.waitlist,
  };
}

function download(env: Env, now: Date, rows: ExportRows): Response {
  return new Response(JSON.stringify(exportDocument(env, rows, now), null, 2), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="my-data-${now.toISOString().slice(0, 10)}.json"`,
      'Cache-Control': 'no-store',
    },
  });
}

/** GET /api/users/me/export: the caller's data, theirs and their family's, as one file. */
export async function exportMyData(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  return download(env, clock(), await exportRows(env.DB, user.id));
}

/** GET /api/users/:id/export (admin): a patient's data, for one who asks at the desk; the read is audited. */
export async function exportPatientData(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const account = await userById(env.DB, inputOf(request, 'GET /users/:id/export').params.id);
  if (!account) throw new HttpError(404, 'No such user');
  await auditEntry(env.DB, {
    actor: admin,
    action: 'record.read',
    target: { type: 'user', id: account.id, name: account.name },
    after: { export: true },
  }).run();
  return download(env, clock(), await exportRows(env.DB, account.id));
}

/** What erasure keeps, and why: written in the erasure's audit row. */
export const KEPT_ON_ERASURE = {
  payments: 'Kept, anonymised: tax and accounting law requires the clinic to keep its payment records.',
  auditTrail:
    'Kept, with a pseudonym for the name, address, phone and signature, and without the front desk’s notes: the record of who changed what is the clinic’s legal proof.',
  bookings: 'Kept, anonymised (no name, address or phone): the payments and the audit trail point at them.',
} as const;
export const ERASED = [
  'name, email address and phone',
  'sign-in (the account can no longer reach this data)',
  'the family in the account',
  'form answers',
  'mobile number and SMS consent',
  'reviews',
  'waitlist places and recalls',
  'calendar feeds',
] as const;

/**
 * Erases an account holder and the people in their account, for `actor` (the holder themselves, or
 * an admin): their upcoming visits cancelled through the booking engine in the same batch as the
 * erasure, its audit row (which says what was erased and what was kept, and why) and the
 * pseudonymised audit trail. An admin's erasure is the clinic's cancellation: every paid visit is
 * refunded. The holder's own is theirs, under the clinic's policy as any cancellation of theirs: a
 * paid visit inside the free-cancellation window is cancelled without a refund, and the answer names
 * it (`notRefunded`; My Appointments says so before they confirm).
 */
export async function eraseAccount(env: Env, actor: User, account: User): Promise<Response> {
  const people: [string, ...string[]] = [account.id, ...(await dependantIds(env.DB, account.id))];
  const now = clock();
  const byThemselves = actor.id === account.id;
  const [upcoming, policy, personal] = await Promise.all([
    Promise.all(people.map((id) => upcomingBookingsOf(env.DB, id, strandClock(env, now)))).then((rows) => rows.flat()),
    readPolicy(env.DB),
    Promise.all(people.map((id) => personalValuesOf(env.DB, id))),
  ]);
  const keepsPayment = (row: (typeof upcoming)[number]) =>
    byThemselves && row.paid === 1 && now >= freeCancellationUntil(env, row, policy.freeCancellationHours);
  const erased = await erase(
    env,
    actor,
    people,
    upcoming.map((row) => ({ row, refund: !keepsPayment(row) })),
    [
      auditEntry(
        env.DB,
        {
          actor,
          action: 'user.deleted',
          // Written already without the name: the erased keep a pseudonym in the trail.
          target: { type: 'user', id: account.id, name: pseudonymOf(account.id) },
          before: { role: account.role },
          after: {
            ...(byThemselves ? { byThemselves: true } : {}),
            ...(people.length > 1 ? { familyErased: people.length - 1 } : {}),
            ...(upcoming.length > 0 ? { cancelledBookings: upcoming.length } : {}),
            ...(upcoming.some(keepsPayment) ? { notRefunded: upcoming.filter(keepsPayment).length } : {}),
            erased: [...ERASED],
            kept: KEPT_ON_ERASURE,
          },
        },
        IF_CHANGED,
      ),
      deleteReviewsOf(env.DB, account.id),
      ...people.flatMap((id) => eraseRecords(env.DB, id)),
      ...people.map((id, i) => pseudonymiseAuditOf(env.DB, id, personal[i] ?? [], now)),
    ],
    // The mail of each cancellation goes to the address they had: queued before the erasure removes it.
    upcoming.flatMap((row) =>
      bookingCancelled(
        env,
        row.id,
        {
          by: byThemselves ? 'patient' : 'admin',
          reason: byThemselves ? null : 'Your record at the clinic was deleted',
        },
        now,
      ),
    ),
  );
  if (!erased) throw new HttpError(404, 'No such user');
  const stranded = (row: (typeof upcoming)[number]) => toStranded({ ...row, doctor_name: row.doctor_name });
  return json({
    acknowledged: true,
    deletedCount: 1,
    cancelled: upcoming.map(stranded),
    notRefunded: upcoming.filter(keepsPayment).map(stranded),
  } satisfies UserDeleted);
}

/**
 * DELETE /api/users/me: a patient deletes their own account (and their family's records in it).
 * An admin's account is deleted by another admin, so the clinic is never left without one.
 */
export async function deleteMyAccount(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  if (user.role === 'admin') throw new HttpError(409, 'An admin account is deleted by another admin');
  return eraseAccount(env, user, user);
}

/**
 * DELETE /api/users/:id (admin): erases a patient; never the caller's own account. Their upcoming
 * bookings are cancelled through the booking engine in the same batch (paid ones refunded, each
 * patient mailed, the times offered to the waitlist), their open offers withdrawn and their reviews
 * deleted; their record and bookings stay anonymised, so payments, receipts and the audit trail keep
 * pointing at them. Answers one deleted user and the bookings it cancelled.
 */
export async function deleteUser(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const id = inputOf(request, 'DELETE /users/:id').params.id;
  if (id === admin.id) throw new HttpError(403, 'You cannot delete your own account');
  const user = await userById(env.DB, id);
  if (!user) throw new HttpError(404, 'No such user');
  return eraseAccount(env, admin, user);
}
