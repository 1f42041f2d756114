import type { Treatment, TreatmentAdded, TreatmentDeleted, TreatmentUpdated } from '../../../contract/treatments.ts';
import { strand } from '../booking/engine/strand.ts';
import { callerOf } from '../people/auth.ts';
import { clinicNow } from '../platform/clinic-time.ts';
import { type Actor, auditEntry, changesAnything, IF_CHANGED } from '../platform/data/audit.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import {
  allTreatments,
  deleteOrDeactivateTreatment,
  insertTreatment,
  TREATMENT_NAME,
  treatmentById,
  updateTreatment,
} from './data/treatments.ts';
import { specialtyId } from './doctors.ts';

/** A treatment that is no longer offered: its bookings stay, its open waitlist offers are withdrawn. */
const withdrawn = (treatmentId: string) => ({ kind: 'treatment withdrawn', treatmentId }) as const;
const NO_CONFLICT = { force: true, retry: '' };

const cents = (dollars: number) => Math.round(dollars * 100);

function nameTaken(error: unknown): never {
  if (violates(error, TREATMENT_NAME)) throw new HttpError(409, 'A treatment with this name already exists');
  throw error;
}

/** GET /api/treatments (admin): every treatment, offered or not. */
export async function listTreatments(_request: Request, env: Env): Promise<Response> {
  return json(await allTreatments(env.DB));
}

/** POST /api/treatments (admin). */
export async function addTreatment(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const body = inputOf(request, 'POST /treatments').body;
  const id = crypto.randomUUID();
  const fields = {
    name: body.name,
    priceCents: cents(body.price),
    durationMinutes: body.durationMinutes,
    specialtyId: await specialtyId(env, body.specialty),
    active: body.active,
    recallMonths: body.recallMonths,
    payment: body.payment,
    depositPercent: body.payment === 'deposit' ? body.depositPercent : null,
  };
  const { name, price, durationMinutes, specialty, active, recallMonths, payment } = body;
  await env.DB.batch([
    insertTreatment(env.DB, id, fields),
    treatmentAudit(env.DB, admin, 'treatment.added', null, {
      _id: id,
      name,
      price,
      durationMinutes,
      specialty,
      active,
      recallMonths,
      payment,
      depositPercent: fields.depositPercent,
    }),
  ]).catch(nameTaken);
  return json({ acknowledged: true, insertedId: id } satisfies TreatmentAdded, 201);
}

/** PUT /api/treatments/:id (admin): the fields sent change; bookings already made keep theirs. */
export async function editTreatment(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'PUT /treatments/:id');
  const body = input.body;
  const id = input.params.id;
  const before = await treatmentById(env.DB, id);
  if (!before) throw new HttpError(404, 'No such treatment');
  const sent = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
  const after: Treatment = { ...before, ...sent };
  if (after.payment !== 'deposit') {
    if (body.depositPercent != null) throw new HttpError(400, 'depositPercent applies to a deposit only');
    after.depositPercent = null;
  }
  const update = updateTreatment(env.DB, id, {
    name: body.name ?? null,
    priceCents: body.price === undefined ? null : cents(body.price),
    durationMinutes: body.durationMinutes ?? null,
    specialtyId: body.specialty === undefined ? null : await specialtyId(env, body.specialty),
    active: body.active ?? null,
    recallMonths: body.recallMonths,
    payment: body.payment ?? null,
    depositPercent: body.depositPercent ?? null,
  });
  const audit = treatmentAudit(env.DB, admin, 'treatment.updated', before, after);
  const write = changesAnything(before, after) ? [update, audit] : [update];
  // Deactivating withdraws the open waitlist offers of the treatment in the same batch.
  const {
    results: [updated],
    withdrawnOffers,
  } = await (before.active && after.active === false
    ? strand(env, withdrawn(id), NO_CONFLICT, write)
    : env.DB.batch(write).then((results) => ({ results, withdrawnOffers: [] }))
  ).catch(nameTaken);
  const modifiedCount = updated?.meta.changes ?? 0;
  if (modifiedCount === 0) throw new HttpError(404, 'No such treatment');
  return json({
    acknowledged: true,
    modifiedCount,
    message: 'Treatment updated',
    withdrawnOffers,
  } satisfies TreatmentUpdated);
}

/** The audit row of a treatment's change, written only when the statement right before it changed a row. */
function treatmentAudit(
  db: D1Database,
  admin: Actor,
  action: 'treatment.added' | 'treatment.updated' | 'treatment.deactivated' | 'treatment.deleted',
  before: Treatment | null,
  after: Treatment | null,
): D1PreparedStatement {
  const treatment = after ?? before;
  const fields = (t: Treatment | null) =>
    t && {
      name: t.name,
      price: t.price,
      durationMinutes: t.durationMinutes,
      specialty: t.specialty,
      active: t.active,
      recallMonths: t.recallMonths,
      payment: t.payment,
      depositPercent: t.depositPercent,
    };
  return auditEntry(
    db,
    {
      actor: admin,
      action,
      target: { type: 'treatment', id: treatment?._id ?? '', name: treatment?.name ?? null },
      before: fields(before),
      after: fields(after),
    },
    IF_CHANGED,
  );
}

/**
 * DELETE /api/treatments/:id (admin): a treatment with upcoming bookings is deactivated instead
 * (patients can no longer book it; the bookings stay), decided in the same statements as the write.
 */
export async function deleteTreatment(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const id = inputOf(request, 'DELETE /treatments/:id').params.id;
  const treatment = await treatmentById(env.DB, id);
  if (!treatment) throw new HttpError(404, 'No such treatment');
  const [deactivate, remove] = deleteOrDeactivateTreatment(env.DB, id, clinicNow(env).date);
  const inactive = { ...treatment, active: false };
  // Each audit row right after the statement it records; deactivating an inactive one changes nothing.
  const { results, withdrawnOffers } = await strand(env, withdrawn(id), NO_CONFLICT, [
    deactivate,
    ...(treatment.active ? [treatmentAudit(env.DB, admin, 'treatment.deactivated', treatment, inactive)] : []),
    remove,
    treatmentAudit(env.DB, admin, 'treatment.deleted', treatment, null),
  ] as D1PreparedStatement[]);
  const [deactivated] = results;
  const deleted = results.at(-2);
  const answer = (deletedCount: number, wasDeactivated: boolean, message: string): TreatmentDeleted => ({
    acknowledged: true,
    deletedCount,
    deactivated: wasDeactivated,
    message,
    withdrawnOffers,
  });
  if ((deleted?.meta.changes ?? 0) > 0) return json(answer(1, false, `${treatment.name} deleted`));
  if ((deactivated?.meta.changes ?? 0) > 0) {
    return json(
      answer(
        0,
        true,
        `${treatment.name} has upcoming bookings, so it was deactivated instead: patients can no longer book it, and its bookings stay`,
      ),
    );
  }
  throw new HttpError(404, 'No such treatment');
}
