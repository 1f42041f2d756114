import type { PaymentRule } from '../../../../contract/payment-rules.ts';
import type { Treatment } from '../../../../contract/treatments.ts';
import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';

/** Whether a treatment has upcoming bookings (SQL on treatment ?1, with ?2 today). */
const HAS_UPCOMING_BOOKINGS = `EXISTS (SELECT 1 FROM bookings b WHERE b.status = 'active' AND b.treatment_id = ?1 AND b.appointment_date >= ?2)`;

/** One treatment per name. */
export const TREATMENT_NAME: UniqueConstraint = { table: 'treatments', columns: ['name'] };

export interface TreatmentRow {
  id: string;
  name: string;
  price_cents: number;
  duration_minutes: number;
  specialty_id: string;
  active: number;
  payment: PaymentRule;
  deposit_percent: number | null;
}

/** Every treatment, active or not, in the clinic's order (TreatmentRow): the schedule's and the booking's read. */
export function scheduleTreatments(db: D1Database): D1PreparedStatement {
  return db.prepare(
    `SELECT id, name, price_cents, duration_minutes, specialty_id, active, payment, deposit_percent
     FROM treatments ORDER BY position, name, id`,
  );
}

const TREATMENTS = `SELECT t.id, t.name, t.price_cents, t.duration_minutes, t.active, t.recall_months, t.payment,
    t.deposit_percent, s.name AS specialty
  FROM treatments t JOIN specialties s ON s.id = t.specialty_id`;

interface AdminTreatmentRow {
  id: string;
  name: string;
  price_cents: number;
  duration_minutes: number;
  active: number;
  recall_months: number | null;
  payment: PaymentRule;
  deposit_percent: number | null;
  specialty: string;
}

const toTreatment = (row: AdminTreatmentRow): Treatment => ({
  _id: row.id,
  name: row.name,
  price: row.price_cents / 100,
  durationMinutes: row.duration_minutes,
  specialty: row.specialty,
  active: row.active === 1,
  recallMonths: row.recall_months,
  payment: row.payment,
  depositPercent: row.deposit_percent,
});

/** Every treatment with its specialty's name, in the clinic's order: the admin's list. */
export async function allTreatments(db: D1Database): Promise<Treatment[]> {
  const { results } = await db.prepare(`${TREATMENTS} ORDER BY t.position, t.name, t.id`).all<AdminTreatmentRow>();
  return results.map(toTreatment);
}

/** One treatment as the admin's list shows it, or null when there is no such treatment. */
export async function treatmentById(db: D1Database, id: string): Promise<Treatment | null> {
  const row = await db.prepare(`${TREATMENTS} WHERE t.id = ?1`).bind(id).first<AdminTreatmentRow>();
  return row && toTreatment(row);
}

export interface TreatmentFields {
  name: string;
  priceCents: number;
  durationMinutes: number;
  specialtyId: string;
  active: boolean;
  /** null or absent: no recall. */
  recallMonths?: number | null;
  /** Absent: 'full'. */
  payment?: PaymentRule;
  /** The deposit's share in percent; kept only while `payment` is 'deposit'. */
  depositPercent?: number | null;
}

/** Adds a treatment after the others; a name already taken fails it on TREATMENT_NAME. */
export function insertTreatment(db: D1Database, id: string, t: TreatmentFields): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO treatments (id, name, price_cents, duration_minutes, specialty_id, active, recall_months, payment,
         deposit_percent, position)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, CASE WHEN ?8 = 'deposit' THEN ?9 END,
         (SELECT coalesce(max(position), -1) + 1 FROM treatments))`,
    )
    .bind(
      id,
      t.name,
      t.priceCents,
      t.durationMinutes,
      t.specialtyId,
      t.active ? 1 : 0,
      t.recallMonths ?? null,
      t.payment ?? 'full',
      t.depositPercent ?? null,
    );
}

/**
 * Changes the fields given (null: unchanged; `recallMonths` undefined: unchanged, null: no recall);
 * 0 changes for an unknown id. A name already taken fails it on TREATMENT_NAME.
 */
export function updateTreatment(
  db: D1Database,
  id: string,
  t: {
    [K in Exclude<keyof TreatmentFields, 'recallMonths' | 'payment' | 'depositPercent'>]: TreatmentFields[K] | null;
  } & {
    recallMonths?: number | null;
    payment?: PaymentRule | null;
    depositPercent?: number | null;
  },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE treatments SET name = coalesce(?2, name), price_cents = coalesce(?3, price_cents),
         duration_minutes = coalesce(?4, duration_minutes), specialty_id = coalesce(?5, specialty_id), active = coalesce(?6, active),
         recall_months = CASE WHEN ?7 = 1 THEN ?8 ELSE recall_months END,
         payment = coalesce(?9, payment),
         deposit_percent = CASE WHEN coalesce(?9, payment) = 'deposit' THEN coalesce(?10, deposit_percent) END
       WHERE id = ?1`,
    )
    .bind(
      id,
      t.name,
      t.priceCents,
      t.durationMinutes,
      t.specialtyId,
      t.active === null ? null : t.active ? 1 : 0,
      t.recallMonths === undefined ? 0 : 1,
      t.recallMonths ?? null,
      t.payment ?? null,
      t.depositPercent ?? null,
    );
}

/**
 * Deletes a treatment without upcoming bookings (from ?2 `today` on) and deactivates one with
 * them, decided in the statements: two statements for one batch (the first's changes: deactivated,
 * the second's: deleted).
 */
export function deleteOrDeactivateTreatment(db: D1Database, id: string, today: string): D1PreparedStatement[] {
  return [
    db.prepare(`UPDATE treatments SET active = 0 WHERE id = ?1 AND ${HAS_UPCOMING_BOOKINGS}`).bind(id, today),
    db.prepare(`DELETE FROM treatments WHERE id = ?1 AND NOT ${HAS_UPCOMING_BOOKINGS}`).bind(id, today),
  ];
}

/** A treatment's name, whether it is offered and how it is paid, or null when there is no such treatment. */
export async function treatmentState(
  db: D1Database,
  id: string,
): Promise<{ name: string; active: boolean; payment: PaymentRule; deposit_percent: number | null } | null> {
  const row = await db
    .prepare('SELECT name, active, payment, deposit_percent FROM treatments WHERE id = ?1')
    .bind(id)
    .first<{ name: string; active: number; payment: PaymentRule; deposit_percent: number | null }>();
  return row && { ...row, active: row.active === 1 };
}
