import type { Modified } from '../../../contract/answers.ts';
import type { ChairAdded, ChairDeleted, ClosureAdded, ClosureDeleted, HoursSaved } from '../../../contract/clinic.ts';
import { RETRY_WITH_FORCE, RETRY_WITH_FORCE_QUERY, strand } from '../booking/engine/strand.ts';
import { callerOf } from '../people/auth.ts';
import { clock } from '../platform/clock.ts';
import { auditEntry, changesAnything, IF_CHANGED } from '../platform/data/audit.ts';
import { timeFreedEvent } from '../platform/data/events.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { forgetClinicInfo } from './clinic-info.ts';
import { allChairs, CHAIR_NAME, chairById, insertChair, removeChair, renameChair } from './data/chairs.ts';
import { type HoursRow, minuteOf, replaceWeekHours, toOpeningHours, weekHours } from './data/clinic-hours.ts';
import { allClosures, closureById, insertClosure, removeClosure } from './data/closures.ts';
import { doctorById } from './data/doctors.ts';

/** GET /api/clinic/hours (anyone): the week's opening hours, Sunday first; a weekday not listed is closed. */
export async function getHours(_request: Request, env: Env): Promise<Response> {
  const { results } = await weekHours(env.DB).all<HoursRow>();
  return json(results.map(toOpeningHours));
}

/** PUT /api/clinic/hours (admin): the whole week; refused (409) when it strands upcoming bookings, unless `force`. */
export async function setHours(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'PUT /clinic/hours');
  const body = input.body;
  const dryRun = input.query.dryRun === '1';
  const hours = body.hours
    .map((day) => [day.weekday, minuteOf(day.open), minuteOf(day.close)] as const)
    .sort((a, b) => a[0] - b[0]);
  const before = { hours: (await weekHours(env.DB).all<HoursRow>()).results.map(toOpeningHours) };
  const after = {
    hours: hours.map(([weekday, open, close]) => toOpeningHours({ weekday, open_minute: open, close_minute: close })),
  };
  const audit = auditEntry(env.DB, {
    actor: admin,
    action: 'clinic.hours_changed',
    target: { type: 'clinic', id: 'hours', name: 'Opening hours' },
    before,
    after,
  });
  const { stranded, withdrawnOffers, results } = await strand(
    env,
    { kind: 'hours', hours },
    { force: body.force, retry: RETRY_WITH_FORCE, dryRun, actor: admin },
    [...replaceWeekHours(env.DB, hours), ...(changesAnything(before, after) ? [audit] : []), weekHours(env.DB)],
  );
  const saved = ((results.at(-1)?.results ?? []) as HoursRow[]).map(toOpeningHours);
  // The pages name the hours and the next closure: this isolate reads them again at the next page.
  forgetClinicInfo();
  return json({ acknowledged: true, hours: saved, stranded, withdrawnOffers } satisfies HoursSaved);
}

/** GET /api/closures (admin): every closure, by its first day. */
export async function listClosures(_request: Request, env: Env): Promise<Response> {
  return json(await allClosures(env.DB));
}

/**
 * POST /api/closures (admin): refused (409) when it strands upcoming bookings, unless the desk says
 * what becomes of them: kept for review (`bookings: 'keep'`, or `force`) or cancelled and refunded
 * (`bookings: 'cancel'`); either way each patient is told by mail.
 */
export async function addClosure(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'POST /closures');
  const body = input.body;
  const dryRun = input.query.dryRun === '1';
  const doctorId = body.doctorId ?? null;
  const noSuchDoctor = () => new HttpError(400, "doctorId must be one of the clinic's doctors");
  const doctor = doctorId === null ? null : await doctorById(env.DB, doctorId);
  if (doctorId !== null && !doctor) throw noSuchDoctor();
  const id = crypto.randomUUID();
  const closure = { from: body.from, to: body.to, reason: body.reason, doctorId, doctor: doctor?.name ?? null };
  const { stranded, cancelled, withdrawnOffers } = await strand(
    env,
    { kind: 'closure', from: body.from, to: body.to, doctorId },
    {
      force: body.force || body.bookings === 'keep',
      retry: RETRY_WITH_FORCE,
      actor: admin,
      dryRun,
      ...(body.bookings === 'cancel' ? { cancel: { actor: admin, reason: closedReason(closure) } } : {}),
    },
    [
      insertClosure(env.DB, { id, ...closure }),
      auditEntry(env.DB, {
        actor: admin,
        action: 'closure.added',
        target: { type: 'closure', id, name: closureName(closure) },
        after: closure,
      }),
    ],
  ).catch((error: unknown) => {
    // The doctor was deleted since the check above.
    if (error instanceof Error && /FOREIGN KEY constraint failed/.test(error.message)) throw noSuchDoctor();
    throw error;
  });
  // The pages name the hours and the next closure: this isolate reads them again at the next page.
  forgetClinicInfo();
  return json({ acknowledged: true, insertedId: id, stranded, cancelled, withdrawnOffers } satisfies ClosureAdded, 201);
}

/** Why a booking on a closed day was cancelled, in the words its patient reads. */
const closedReason = (closure: { reason: string; doctor: string | null }) =>
  `${closure.doctor === null ? 'The clinic is closed' : `${closure.doctor} is away`} that day (${closure.reason})`;

/** DELETE /api/closures/:id (admin): the days become bookable again. */
export async function deleteClosure(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const id = inputOf(request, 'DELETE /closures/:id').params.id;
  const closure = await closureById(env.DB, id);
  if (!closure) throw new HttpError(404, 'No such closure');
  const { from, to, reason, doctorId, doctor } = closure;
  const [removed] = await env.DB.batch([
    removeClosure(env.DB, id),
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: 'closure.deleted',
        target: { type: 'closure', id, name: closureName(closure) },
        before: { from, to, reason, doctorId, doctor },
      },
      IF_CHANGED,
    ),
    // The days it closed are open again: the waitlist hears of it.
    timeFreedEvent(env.DB, admin, clock(), { why: 'closure.deleted' }),
  ]);
  const deletedCount = removed?.meta.changes ?? 0;
  if (deletedCount === 0) throw new HttpError(404, 'No such closure');
  // The pages name the hours and the next closure: this isolate reads them again at the next page.
  forgetClinicInfo();
  return json({ acknowledged: true, deletedCount } satisfies ClosureDeleted);
}

/** A closure as the audit trail names it: "2026-12-24 to 2026-12-26: Holidays (Dr. Ada Lee)". */
const closureName = (c: { from: string; to: string; reason: string; doctor: string | null }) =>
  `${c.from === c.to ? c.from : `${c.from} to ${c.to}`}: ${c.reason}${c.doctor ? ` (${c.doctor})` : ''}`;

/** GET /api/chairs (admin). */
export async function listChairs(_request: Request, env: Env): Promise<Response> {
  return json(await allChairs(env.DB));
}

/** POST /api/chairs (admin). */
export async function addChair(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const body = inputOf(request, 'POST /chairs').body;
  const id = crypto.randomUUID();
  await env.DB.batch([
    insertChair(env.DB, id, body.name),
    auditEntry(env.DB, {
      actor: admin,
      action: 'chair.added',
      target: { type: 'chair', id, name: body.name },
      after: { name: body.name },
    }),
  ]).catch(chairNameTaken);
  return json({ acknowledged: true, insertedId: id } satisfies ChairAdded, 201);
}

function chairNameTaken(error: unknown): never {
  if (violates(error, CHAIR_NAME)) throw new HttpError(409, 'A chair with this name already exists');
  throw error;
}

/** PUT /api/chairs/:id (admin): a new name; its bookings keep the chair. */
export async function editChair(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'PUT /chairs/:id');
  const { name } = input.body;
  const chair = await chairById(env.DB, input.params.id);
  if (!chair) throw new HttpError(404, 'No such chair');
  const [renamed] = await env.DB.batch([
    renameChair(env.DB, chair._id, name),
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: 'chair.renamed',
        target: { type: 'chair', id: chair._id, name },
        before: { name: chair.name },
        after: { name },
      },
      IF_CHANGED,
    ),
  ]).catch(chairNameTaken);
  const modifiedCount = renamed?.meta.changes ?? 0;
  return json({
    acknowledged: true,
    modifiedCount,
    message: modifiedCount ? `Renamed to ${name}` : `${name} already has this name`,
  } satisfies Modified);
}

/**
 * DELETE /api/chairs/:id[?force=true] (admin): refused (409) while it has upcoming bookings, unless
 * `force`: then those bookings stay, without a chair, marked for review.
 */
export async function deleteChair(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'DELETE /chairs/:id');
  const query = input.query;
  const force = query.force === 'true';
  const id = input.params.id;
  const chair = await chairById(env.DB, id);
  if (!chair) throw new HttpError(404, 'No such chair');
  const { stranded, withdrawnOffers, results } = await strand(
    env,
    { kind: 'chair deleted', chairId: id },
    { force, retry: RETRY_WITH_FORCE_QUERY, dryRun: query.dryRun === '1', actor: admin },
    [
      removeChair(env.DB, id),
      auditEntry(
        env.DB,
        {
          actor: admin,
          action: 'chair.deleted',
          target: { type: 'chair', id, name: chair.name },
          before: { name: chair.name },
        },
        IF_CHANGED,
      ),
    ],
  );
  if ((results[0]?.meta.changes ?? 0) === 0) throw new HttpError(404, 'No such chair');
  return json({ acknowledged: true, deletedCount: 1, stranded, withdrawnOffers } satisfies ChairDeleted);
}
