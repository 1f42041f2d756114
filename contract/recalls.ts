import * as v from 'valibot';
import { Inserted } from './answers.ts';
import { isoDate, text } from './fields.ts';

/**
 * A recall: the patient is due for a treatment again (the six-month cleaning). `due` until the first
 * message, `contacted` after it, `booked` once the patient booked that treatment (by any path),
 * `closed` when the desk closed it or a later visit replaced it.
 */
export const RecallStatus = v.picklist(
  ['due', 'contacted', 'booked', 'closed'],
  'status must be due, contacted, booked or closed',
);
export type RecallStatus = v.InferOutput<typeof RecallStatus>;

export const Recall = v.strictObject({
  _id: v.string(),
  patientId: v.string(),
  patientName: v.string(),
  email: v.string(),
  phone: v.string(),
  treatmentId: v.string(),
  treatment: v.string(),
  /** ISO date on the clinic's calendar. */
  dueDate: v.string(),
  status: RecallStatus,
  /** How many messages went out, and when the last one was queued (ISO, UTC). */
  attempts: v.number(),
  lastContactAt: v.nullable(v.string()),
  /** The patient asked for no reminders: no recall message goes out. */
  doNotContact: v.boolean(),
  source: v.picklist(['visit', 'desk', 'import']),
  /** The booking that answered it, when booked. */
  bookingId: v.nullable(v.string()),
});
export type Recall = v.InferOutput<typeof Recall>;

/** GET /api/recalls?status= (admin): open ones (due and contacted) without `status`. */
export const RecallsQuery = v.object({ status: v.optional(RecallStatus) });

/**
 * The recall list: overdue and due first (by due date), and the clinic's recall compliance: of the
 * recalls due at least 30 days ago or booked, the share booked within 30 days of their due date
 * (null when there is none yet).
 */
export const RecallList = v.strictObject({
  recalls: v.array(Recall),
  compliance: v.strictObject({ booked: v.number(), of: v.number(), percent: v.nullable(v.number()) }),
});
export type RecallList = v.InferOutput<typeof RecallList>;

/** POST /api/recalls (admin): a recall added by hand (a patient whose last visit is in an older system). */
export const NewRecall = v.object({
  patientId: text('patientId', 100),
  treatmentId: text('treatmentId', 100),
  dueDate: isoDate('dueDate'),
});
export type NewRecall = v.InferInput<typeof NewRecall>;
export const RecallAdded = Inserted;

/**
 * POST /api/recalls/import (admin): CSV text with a header line `email,treatment,dueDate` (the
 * treatment by name); each line adds a recall or says why not.
 */
export const RecallImport = v.object({
  csv: v.pipe(
    v.string('csv is required and must be text'),
    v.minLength(1, 'csv is required'),
    v.maxLength(60_000, 'csv must be at most 60000 characters'),
  ),
});
export const RecallsImported = v.strictObject({
  acknowledged: v.literal(true),
  added: v.number(),
  skipped: v.array(v.strictObject({ line: v.number(), reason: v.string() })),
});
export type RecallsImported = v.InferOutput<typeof RecallsImported>;

/** PUT /api/recalls/:id (admin): close it, or stop or allow its messages. */
export const RecallChange = v.object({
  status: v.optional(v.literal('closed', 'status can only be set to closed')),
  doNotContact: v.optional(v.boolean('doNotContact must be true or false')),
});
export const RecallChanged = v.strictObject({ acknowledged: v.literal(true), recall: Recall });

/** GET /api/users/me/recalls: the signed-in patient's open and booked recalls. */
export const MyRecall = v.strictObject({
  _id: v.string(),
  treatment: v.string(),
  dueDate: v.string(),
  status: RecallStatus,
});
export type MyRecall = v.InferOutput<typeof MyRecall>;
