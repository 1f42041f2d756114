import type { Recall, RecallStatus } from '../../../../contract/recalls.ts';
import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';

/** One open recall (due or contacted) per patient and treatment. */
export const ONE_OPEN_RECALL: UniqueConstraint = { table: 'recalls', columns: ['patient_id', 'treatment_id'] };

export interface RecallRow {
  id: string;
  patient_id: string;
  patient_name: string;
  email: string;
  phone: string;
  treatment_id: string;
  treatment: string;
  price_cents: number;
  due_date: string;
  status: RecallStatus;
  source: 'visit' | 'desk' | 'import';
  attempts: number;
  last_contact_at: string | null;
  do_not_contact: number;
  opted_out: number;
  last_doctor_id: string | null;
  booking_id: string | null;
}

const COLUMNS = `r.id, r.patient_id, u.name AS patient_name, u.email, coalesce(u.sms_phone, '') AS phone, r.treatment_id,
  t.name AS treatment, t.price_cents, r.due_date, r.status, r.source, r.attempts, r.last_contact_at, r.do_not_contact,
  u.reminders_opt_out AS opted_out, r.last_doctor_id, r.booking_id`;
const FROM = 'FROM recalls r JOIN users u ON u.id = r.patient_id JOIN treatments t ON t.id = r.treatment_id';

export const toRecall = (row: RecallRow, shownEmail: (email: string) => string): Recall => ({
  _id: row.id,
  patientId: row.patient_id,
  patientName: row.patient_name,
  email: shownEmail(row.email),
  phone: row.phone,
  treatmentId: row.treatment_id,
  treatment: row.treatment,
  dueDate: row.due_date,
  status: row.status,
  attempts: row.attempts,
  lastContactAt: row.last_contact_at,
  doNotContact: row.do_not_contact === 1 || row.opted_out === 1,
  source: row.source,
  bookingId: row.booking_id,
});

export function recallById(db: D1Database, id: string): Promise<RecallRow | null> {
  return db.prepare(`SELECT ${COLUMNS} ${FROM} WHERE r.id = ?1`).bind(id).first<RecallRow>();
}

/** The recall list: with a status, those; without, the open ones. Earliest due first. At most 500. */
export function recallsWith(db: D1Database, status: RecallStatus | undefined): D1PreparedStatement {
  const where = status ? 'r.status = ?1' : "r.status IN ('due', 'contacted') AND ?1 IS NULL";
  return db
    .prepare(`SELECT ${COLUMNS} ${FROM} WHERE ${where} ORDER BY r.due_date, u.name, r.id LIMIT 500`)
    .bind(status ?? null);
}

/**
 * Recall compliance at `today`: of the recalls due at least 30 days ago, or booked, those booked
 * within 30 days of their due date (a recall booked before its due date counts).
 */
export function recallCompliance(db: D1Database, today: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT coalesce(sum(booked_at IS NOT NULL AND substr(booked_at, 1, 10) <= date(due_date, '+30 days')), 0) AS booked,
         count(*) AS total
       FROM recalls
       WHERE (status = 'booked' OR due_date <= date(?1, '-30 days')) AND source IN ('visit', 'desk', 'import')`,
    )
    .bind(today);
}

export function patientRecalls(db: D1Database, patientId: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT r.id, t.name AS treatment, r.due_date, r.status FROM recalls r JOIN treatments t ON t.id = r.treatment_id
       WHERE r.patient_id = ?1 AND r.status IN ('due', 'contacted', 'booked') ORDER BY r.due_date`,
    )
    .bind(patientId);
}

/**
 * Adds a recall; a second open one of the patient and treatment fails on ONE_OPEN_RECALL, or, with
 * `orSkip`, is not added (0 changes), so an import's batch holds many lines.
 */
export function insertRecall(
  db: D1Database,
  recall: { id: string; patientId: string; treatmentId: string; dueDate: string; source: 'desk' | 'import' },
  { orSkip = false } = {},
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO recalls (id, patient_id, treatment_id, due_date, source, last_doctor_id)
       SELECT ?1, ?2, ?3, ?4, ?5, (SELECT b.doctor_id FROM bookings b WHERE b.user_id = ?2 AND b.status = 'attended'
         ORDER BY b.appointment_date DESC LIMIT 1)
       WHERE true${orSkip ? ' ON CONFLICT DO NOTHING' : ''}`,
    )
    .bind(recall.id, recall.patientId, recall.treatmentId, recall.dueDate, recall.source);
}

/** The ids of the patients (not erased) by lower-cased email, and of the treatments by lower-cased name: an import's look-ups. */
export function importLookups(db: D1Database): D1PreparedStatement[] {
  return [
    db.prepare("SELECT id, lower(email) AS key FROM users WHERE role = 'patient' AND erased_at IS NULL"),
    db.prepare('SELECT id, lower(name) AS key FROM treatments'),
  ];
}

/** Whether treatment `id` exists. */
export async function treatmentExists(db: D1Database, id: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM treatments WHERE id = ?1').bind(id).first()) !== null;
}

export function updateRecall(
  db: D1Database,
  id: string,
  change: { close: boolean; doNotContact: boolean | undefined },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE recalls SET status = CASE WHEN ?2 = 1 AND status IN ('due', 'contacted') THEN 'closed' ELSE status END,
         do_not_contact = coalesce(?3, do_not_contact)
       WHERE id = ?1`,
    )
    .bind(id, change.close ? 1 : 0, change.doNotContact === undefined ? null : change.doNotContact ? 1 : 0);
}
