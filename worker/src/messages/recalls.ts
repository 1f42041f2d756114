/**
 * Recall (issue 26): a patient is due for a treatment again. A visit marked attended makes the next
 * one due (a trigger of migration 0013), the desk adds them by hand or from a CSV, and the cron sends
 * each open recall the step of its message sequence that is due (at most once per step: the
 * outbox's unique key), re-checked when sent. Booking the treatment, by any path, books the recall.
 */
import type * as v from 'valibot';
import { isCalendarDate } from '../../../contract/fields.ts';
import type { MyRecall, RecallAdded, RecallChanged, RecallList, RecallsImported } from '../../../contract/recalls.ts';
import { shownEmail } from '../booking/data/bookings.ts';
import { readDay } from '../booking/schedule.ts';
import { callerOf } from '../people/auth.ts';
import { userById } from '../people/data/users.ts';
import { clinicNow } from '../platform/clinic-time.ts';
import { auditEntry, IF_CHANGED } from '../platform/data/audit.ts';
import { violates } from '../platform/data/unique-constraint.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { queueRecallMessages } from './data/outbox.ts';
import {
  importLookups,
  insertRecall,
  ONE_OPEN_RECALL,
  patientRecalls,
  type RecallRow,
  recallById,
  recallCompliance,
  recallsWith,
  toRecall,
  treatmentExists,
  updateRecall,
} from './data/recalls.ts';

const toAnswer = (row: RecallRow) => toRecall(row, shownEmail);

/** GET /api/recalls?status= (admin): the recall list, earliest due first, and the clinic's compliance. */
export async function listRecalls(request: Request, env: Env): Promise<Response> {
  const { status } = inputOf(request, 'GET /recalls').query;
  const today = clinicNow(env).date;
  const [list, compliance] = await env.DB.batch<unknown>([
    recallsWith(env.DB, status),
    recallCompliance(env.DB, today),
  ]);
  const { booked, total } = (compliance?.results[0] ?? { booked: 0, total: 0 }) as { booked: number; total: number };
  return json({
    recalls: ((list?.results ?? []) as RecallRow[]).map(toAnswer),
    compliance: { booked, of: total, percent: total === 0 ? null : Math.round((booked / total) * 100) },
  } satisfies RecallList);
}

const ALREADY_OPEN = 'This patient already has an open recall for this treatment';

type NewRecallLine = { patientId: string; treatmentId: string; dueDate: string; source: 'desk' | 'import' };

/** Recall `id`'s statements: the recall (skipped, with `orSkip`, when one is open) and its audit row. */
function recallStatements(
  env: Env,
  admin: ReturnType<typeof callerOf>,
  id: string,
  recall: NewRecallLine,
  options: { orSkip?: boolean } = {},
): D1PreparedStatement[] {
  return [
    insertRecall(env.DB, { id, ...recall }, options),
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: 'recall.added',
        target: {
          type: 'recall',
          id,
          name: (param) => `(SELECT name FROM users WHERE id = ${param(recall.patientId)})`,
        },
        after: { treatmentId: recall.treatmentId, dueDate: recall.dueDate, source: recall.source },
      },
      IF_CHANGED,
    ),
  ];
}

/** POST /api/recalls (admin): a recall by hand, for a patient whose last visit is in an older system. */
export async function createRecall(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const body = inputOf(request, 'POST /recalls').body;
  const [patient, treatment] = await Promise.all([
    userById(env.DB, body.patientId),
    treatmentExists(env.DB, body.treatmentId),
  ]);
  if (patient?.role !== 'patient') throw new HttpError(404, 'No such patient');
  if (!treatment) throw new HttpError(404, 'No such treatment');
  const id = crypto.randomUUID();
  try {
    await env.DB.batch(recallStatements(env, admin, id, { ...body, source: 'desk' }));
  } catch (error) {
    if (violates(error, ONE_OPEN_RECALL)) throw new HttpError(409, ALREADY_OPEN);
    throw error;
  }
  return json({ acknowledged: true, insertedId: id } satisfies v.InferOutput<typeof RecallAdded>, 201);
}

const CSV_HEADER = ['email', 'treatment', 'duedate'];

/** Splits one CSV line into its cells ("quoted, with ""inner"" quotes" allowed). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  out.push(cell.trim());
  return out;
}

/** Statements per batch of an import: D1 runs each batch as one query, and 1,000 lines fit in 40 of them. */
const IMPORT_BATCH_STATEMENTS = 50;

/**
 * POST /api/recalls/import (admin): CSV `email,treatment,dueDate`, at most 1,000 lines; each line
 * adds a recall with its audit row, or is skipped with its reason (an open recall of the patient
 * and treatment is the database's to find, in the same statement). Within D1's limit of queries per
 * invocation: two look-ups, then the lines in batches of 50 statements.
 */
export async function importRecalls(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const { csv } = inputOf(request, 'POST /recalls/import').body;
  const lines = csv.split(/\r?\n/);
  const header = cells(lines[0] ?? '').map((c) => c.toLowerCase());
  if (header.join(',') !== CSV_HEADER.join(',')) {
    throw new HttpError(400, 'The first line must be the header email,treatment,dueDate');
  }
  if (lines.length > 1001) throw new HttpError(400, 'A file holds at most 1000 recalls');
  const [patients, treatments] = (await env.DB.batch(importLookups(env.DB))).map(
    (result) => new Map((result.results as { id: string; key: string }[]).map((row) => [row.key, row.id])),
  ) as [Map<string, string>, Map<string, string>];
  const skipped: RecallsImported['skipped'] = [];
  const adding: { line: number; statements: D1PreparedStatement[] }[] = [];
  for (const [index, line] of lines.entries()) {
    if (index === 0 || line.trim() === '') continue;
    const [email = '', treatment = '', dueDate = ''] = cells(line);
    const patientId = patients.get(email.toLowerCase());
    const treatmentId = treatments.get(treatment.toLowerCase());
    const reason = !patientId
      ? `no patient has the email "${email}"`
      : !treatmentId
        ? `no treatment is called "${treatment}"`
        : !isCalendarDate(dueDate)
          ? `"${dueDate}" is not a date like 2027-05-31`
          : null;
    if (reason || !patientId || !treatmentId) {
      skipped.push({ line: index + 1, reason: reason ?? '' });
      continue;
    }
    const recall = { patientId, treatmentId, dueDate, source: 'import' } as const;
    adding.push({
      line: index + 1,
      statements: recallStatements(env, admin, crypto.randomUUID(), recall, { orSkip: true }),
    });
  }
  let added = 0;
  const perBatch = IMPORT_BATCH_STATEMENTS / 2;
  for (let at = 0; at < adding.length; at += perBatch) {
    const chunk = adding.slice(at, at + perBatch);
    const results = await env.DB.batch(chunk.flatMap((line) => line.statements));
    chunk.forEach((line, i) => {
      if ((results[2 * i]?.meta.changes ?? 0) > 0) added += 1;
      else skipped.push({ line: line.line, reason: ALREADY_OPEN.toLowerCase() });
    });
  }
  skipped.sort((a, b) => a.line - b.line);
  return json({ acknowledged: true, added, skipped } satisfies RecallsImported);
}

/** PUT /api/recalls/:id (admin): close it, or stop or allow its messages; with its audit row. */
export async function changeRecall(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'PUT /recalls/:id');
  const id = input.params.id;
  const change = input.body;
  const before = await recallById(env.DB, id);
  if (!before) throw new HttpError(404, 'No such recall');
  await env.DB.batch([
    updateRecall(env.DB, id, { close: change.status === 'closed', doNotContact: change.doNotContact }),
    auditEntry(env.DB, {
      actor: admin,
      action: 'recall.changed',
      target: { type: 'recall', id, name: before.patient_name },
      before: { status: before.status, doNotContact: before.do_not_contact === 1 },
      after: {
        status: change.status === 'closed' && ['due', 'contacted'].includes(before.status) ? 'closed' : before.status,
        doNotContact: change.doNotContact ?? before.do_not_contact === 1,
      },
    }),
  ]);
  const after = await recallById(env.DB, id);
  if (!after) throw new HttpError(404, 'No such recall');
  return json({ acknowledged: true, recall: toAnswer(after) } satisfies v.InferOutput<typeof RecallChanged>);
}

/** GET /api/users/me/recalls: the signed-in patient's open and booked recalls. */
export async function myRecalls(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const { results } = await patientRecalls(env.DB, user.id).all<{
    id: string;
    treatment: string;
    due_date: string;
    status: MyRecall['status'];
  }>();
  return json(
    results.map((r): MyRecall => ({ _id: r.id, treatment: r.treatment, dueDate: r.due_date, status: r.status })),
  );
}

/**
 * The recall pass of a cron run at `now`: on a day the clinic is open, queues each open recall's
 * latest due step (mail, and SMS to a patient who agreed), once per (recall, step, channel), and
 * counts its attempts. Answers how many messages were queued.
 */
export async function queueDueRecalls(env: Env, now: Date): Promise<number> {
  const today = clinicNow(env, now).date;
  const day = await readDay(env, today, now);
  if (!day.hours) return 0;
  const [queued] = await env.DB.batch(queueRecallMessages(env.DB, today, now));
  return queued?.meta.changes ?? 0;
}
