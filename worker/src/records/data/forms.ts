import type { Questionnaire } from '../../../../contract/forms.ts';

export interface FormRow {
  id: string;
  title: string;
  current_version: number;
  renew_months: number | null;
  all_treatments: number;
  /** JSON: the treatment ids that need it. */
  treatments: string;
  /** JSON: the current version's Questionnaire. */
  questionnaire: string;
}

const FORM_COLUMNS = `f.id, f.title, f.current_version, f.renew_months, f.all_treatments,
  (SELECT json_group_array(tf.treatment_id) FROM treatment_forms tf WHERE tf.form_id = f.id) AS treatments,
  v.questionnaire`;
const FROM_FORMS = 'FROM forms f JOIN form_versions v ON v.form_id = f.id AND v.version = f.current_version';

/** The active forms with their current version, by title. */
export async function listForms(db: D1Database): Promise<FormRow[]> {
  const { results } = await db
    .prepare(`SELECT ${FORM_COLUMNS} ${FROM_FORMS} WHERE f.active = 1 ORDER BY f.title COLLATE NOCASE, f.id`)
    .all<FormRow>();
  return results;
}

export function formById(db: D1Database, id: string): Promise<FormRow | null> {
  return db.prepare(`SELECT ${FORM_COLUMNS} ${FROM_FORMS} WHERE f.id = ?1 AND f.active = 1`).bind(id).first<FormRow>();
}

/** The ids among `ids` that are no treatment. */
export async function unknownTreatments(db: D1Database, ids: string[]): Promise<string[]> {
  const { results } = await db
    .prepare('SELECT value AS id FROM json_each(?1) WHERE value NOT IN (SELECT id FROM treatments) ORDER BY value')
    .bind(JSON.stringify(ids))
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

export interface FormWrite {
  id: string;
  title: string;
  renewMonths: number | null;
  treatments: 'all' | string[];
  /** The questionnaire; its `version` is set in SQL to the version being written. */
  questionnaire: Questionnaire;
}

/** Which treatments need the form: replaced whole. */
function treatmentLinks(db: D1Database, form: FormWrite): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM treatment_forms WHERE form_id = ?1').bind(form.id),
    db
      .prepare('INSERT INTO treatment_forms (treatment_id, form_id) SELECT value, ?1 FROM json_each(?2)')
      .bind(form.id, JSON.stringify(form.treatments === 'all' ? [] : form.treatments)),
  ];
}

/** A new form at version 1 (one batch). */
export function insertForm(db: D1Database, form: FormWrite): D1PreparedStatement[] {
  return [
    db
      .prepare('INSERT INTO forms (id, title, renew_months, all_treatments) VALUES (?1, ?2, ?3, ?4)')
      .bind(form.id, form.title, form.renewMonths, form.treatments === 'all' ? 1 : 0),
    db
      .prepare(
        "INSERT INTO form_versions (form_id, version, questionnaire) VALUES (?1, 1, json_set(?2, '$.version', '1'))",
      )
      .bind(form.id, JSON.stringify(form.questionnaire)),
    ...treatmentLinks(db, form),
  ];
}

/**
 * The form's next version (one batch): the version number is taken in SQL, so two admins saving at
 * once write versions n+1 and n+2, never one over the other. The old versions stay as they were.
 */
export function reviseForm(db: D1Database, form: FormWrite): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE forms SET current_version = current_version + 1, title = ?2, renew_months = ?3, all_treatments = ?4
         WHERE id = ?1 AND active = 1`,
      )
      .bind(form.id, form.title, form.renewMonths, form.treatments === 'all' ? 1 : 0),
    db
      .prepare(
        `INSERT INTO form_versions (form_id, version, questionnaire)
         SELECT id, current_version, json_set(?2, '$.version', CAST(current_version AS TEXT)) FROM forms WHERE id = ?1`,
      )
      .bind(form.id, JSON.stringify(form.questionnaire)),
    ...treatmentLinks(db, form),
  ];
}

export interface BookingFormRow {
  form_id: string;
  title: string;
  status: 'missing' | 'filled' | 'expired';
  current_version: number;
  /** JSON: the current version's Questionnaire. */
  questionnaire: string;
  /** JSON: the answers that count (filled), or the last ones (expired); null when none. */
  response: string | null;
  answered_at: string | null;
  alerts: string | null;
}

/** The forms booking `bookingId` needs, where each stands, and the answers that count (or the last ones). */
export async function formsOfBooking(db: D1Database, bookingId: string): Promise<BookingFormRow[]> {
  const { results } = await db
    .prepare(
      `SELECT bf.form_id, bf.title, bf.status, bf.current_version, v.questionnaire, r.response,
         r.created_at AS answered_at, r.alerts
       FROM booking_forms bf
         JOIN form_versions v ON v.form_id = bf.form_id AND v.version = bf.current_version
         LEFT JOIN form_responses r ON r.id = bf.response_id
       WHERE bf.booking_id = ?1
       ORDER BY bf.renew_months IS NULL, bf.title COLLATE NOCASE`,
    )
    .bind(bookingId)
    .all<BookingFormRow>();
  return results;
}

export interface NewResponse {
  id: string;
  formId: string;
  version: number;
  patientId: string;
  bookingId: string;
  response: object;
  alerts: string[];
  signedName: string | null;
  createdBy: string;
  requestKey: string | null;
  createdAt: string;
}

/** Stores answers as a new response (never over another); a repeated request key stores nothing. */
export function insertResponse(db: D1Database, r: NewResponse): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO form_responses (id, form_id, version, patient_id, booking_id, response, alerts, signed_name,
         created_by, request_key, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
       ON CONFLICT (request_key) DO NOTHING`,
    )
    .bind(
      r.id,
      r.formId,
      r.version,
      r.patientId,
      r.bookingId,
      JSON.stringify(r.response),
      JSON.stringify(r.alerts),
      r.signedName,
      r.createdBy,
      r.requestKey,
      r.createdAt,
    );
}

/** The response stored under request key `key`, if any (a repeated send answers it again). */
export function responseByKey(db: D1Database, key: string): Promise<{ id: string; alerts: string } | null> {
  return db.prepare('SELECT id, alerts FROM form_responses WHERE request_key = ?1').bind(key).first();
}

/** The age in whole years of a booking's patient on its day, from their date of birth (null: not on record). */
export async function ageAtVisit(db: D1Database, bookingId: string): Promise<number | null> {
  const row = await db
    .prepare(
      `SELECT CAST(strftime('%Y', b.appointment_date) AS INTEGER) - CAST(strftime('%Y', u.birth_date) AS INTEGER)
         - (strftime('%m-%d', b.appointment_date) < strftime('%m-%d', u.birth_date)) AS age
       FROM bookings b JOIN users u ON u.id = b.user_id WHERE b.id = ?1 AND u.birth_date IS NOT NULL`,
    )
    .bind(bookingId)
    .first<{ age: number }>();
  return row?.age ?? null;
}
