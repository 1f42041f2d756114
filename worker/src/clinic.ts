import { ForceQuery } from '../../contract/bookings.ts';
import {
  type ChairAdded,
  type ChairDeleted,
  type ClosureAdded,
  type ClosureDeleted,
  HoursChange,
  type HoursSaved,
  NewChair,
  NewClosure,
} from '../../contract/clinic.ts';
import { requireAdmin } from './auth.ts';
import { allChairs, CHAIR_NAME, insertChair, removeChair } from './data/chairs.ts';
import { type HoursRow, minuteOf, replaceWeekHours, toOpeningHours, weekHours } from './data/clinic-hours.ts';
import { allClosures, insertClosure, removeClosure } from './data/closures.ts';
import { doctorById } from './data/doctors.ts';
import { violates } from './data/unique-constraint.ts';
import type { Env } from './env.ts';
import { HttpError, json, readJson, readQuery } from './http.ts';
import { changeSchedule, RETRY_WITH_FORCE, RETRY_WITH_FORCE_QUERY } from './schedule-changes.ts';

type Params = { params: Record<string, string> };

/** GET /api/clinic/hours (anyone): the week's opening hours, Sunday first; a weekday not listed is closed. */
export async function getHours(_request: Request, env: Env): Promise<Response> {
  const { results } = await weekHours(env.DB).all<HoursRow>();
  return json(results.map(toOpeningHours));
}

/** PUT /api/clinic/hours (admin): the whole week; refused (409) when it strands upcoming bookings, unless `force`. */
export async function setHours(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const body = await readJson(request, HoursChange);
  const hours = body.hours
    .map((day) => [day.weekday, minuteOf(day.open), minuteOf(day.close)] as const)
    .sort((a, b) => a[0] - b[0]);
  const { stranded, results } = await changeSchedule(
    env,
    { kind: 'hours', hours },
    { force: body.force, retry: RETRY_WITH_FORCE },
    [...replaceWeekHours(env.DB, hours), weekHours(env.DB)],
  );
  const saved = ((results.at(-1)?.results ?? []) as HoursRow[]).map(toOpeningHours);
  return json({ acknowledged: true, hours: saved, stranded } satisfies HoursSaved);
}

/** GET /api/closures (admin): every closure, by its first day. */
export async function listClosures(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  return json(await allClosures(env.DB));
}

/** POST /api/closures (admin): refused (409) when it strands upcoming bookings, unless `force`. */
export async function addClosure(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const body = await readJson(request, NewClosure);
  const doctorId = body.doctorId ?? null;
  const noSuchDoctor = () => new HttpError(400, "doctorId must be one of the clinic's doctors");
  if (doctorId !== null && !(await doctorById(env.DB, doctorId))) throw noSuchDoctor();
  const id = crypto.randomUUID();
  const { stranded } = await changeSchedule(
    env,
    { kind: 'closure', from: body.from, to: body.to, doctorId },
    { force: body.force, retry: RETRY_WITH_FORCE },
    [insertClosure(env.DB, { id, from: body.from, to: body.to, reason: body.reason, doctorId })],
  ).catch((error: unknown) => {
    // The doctor was deleted since the check above.
    if (error instanceof Error && /FOREIGN KEY constraint failed/.test(error.message)) throw noSuchDoctor();
    throw error;
  });
  return json({ acknowledged: true, insertedId: id, stranded } satisfies ClosureAdded, 201);
}

/** DELETE /api/closures/:id (admin): the days become bookable again. */
export async function deleteClosure(request: Request & Params, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const { meta } = await removeClosure(env.DB, request.params.id ?? '').run();
  if (meta.changes === 0) throw new HttpError(404, 'No such closure');
  return json({ acknowledged: true, deletedCount: meta.changes } satisfies ClosureDeleted);
}

/** GET /api/chairs (admin). */
export async function listChairs(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  return json(await allChairs(env.DB));
}

/** POST /api/chairs (admin). */
export async function addChair(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const body = await readJson(request, NewChair);
  const id = crypto.randomUUID();
  await insertChair(env.DB, id, body.name)
    .run()
    .catch((error: unknown) => {
      if (violates(error, CHAIR_NAME)) throw new HttpError(409, 'A chair with this name already exists');
      throw error;
    });
  return json({ acknowledged: true, insertedId: id } satisfies ChairAdded, 201);
}

/**
 * DELETE /api/chairs/:id[?force=true] (admin): refused (409) while it has upcoming bookings, unless
 * `force`: then those bookings stay, without a chair, marked for review.
 */
export async function deleteChair(request: Request & Params, env: Env): Promise<Response> {
  await requireAdmin(request, env);
  const force = readQuery(request, ForceQuery).force === 'true';
  const id = request.params.id ?? '';
  const { stranded, results } = await changeSchedule(
    env,
    { kind: 'chair deleted', chairId: id },
    { force, retry: RETRY_WITH_FORCE_QUERY },
    [removeChair(env.DB, id)],
  );
  if ((results[0]?.meta.changes ?? 0) === 0) throw new HttpError(404, 'No such chair');
  return json({ acknowledged: true, deletedCount: 1, stranded } satisfies ChairDeleted);
}
