/**
 * Every statement that writes bookings, claims or waitlist offers. Only the booking engine
 * (worker/src/booking/engine.ts) imports this module (a script test checks it), so every change to
 * a booking takes the engine's path and its rules.
 */
import type { UniqueConstraint } from '../../platform/data/unique-constraint.ts';
import { heldPastItsEnd, liveBooking, type PaymentTerms } from './bookings.ts';
import { type ScheduleChange, type strandClock, strandedWhere } from './strand.ts';

/** The clinic's clock when a change is made: today, minutes after midnight, now (UTC). */
export type StrandClock = ReturnType<typeof strandClock>;

/** One 15-minute cell of a day on one resource is claimed once (the primary key of claims). */
export const ONE_CLAIM_PER_CELL: UniqueConstraint = { table: 'claims', columns: ['day', 'resource', 'cell'] };
/** A waitlist entry has one open offer at a time (index waitlist_one_open_offer). */
export const ONE_OPEN_OFFER: UniqueConstraint = { table: 'waitlist_offers', columns: ['entry_id'] };

export const cellList = (cells: { firstCell: number; lastCell: number }) =>
  JSON.stringify(Array.from({ length: cells.lastCell - cells.firstCell + 1 }, (_, i) => cells.firstCell + i));

/** The values the database's placement rules are checked against (migration 0011, placement_checks). */
export interface PlacementCheck {
  treatmentId: string;
  day: string;
  startMinute: number;
  durationMinutes: number;
  doctorId: string;
  chairId: string;
  patientId: string;
  priceCents: number;
  /** The hold limit; null: none (a move, the front desk's override). */
  maxUnpaid: number | null;
  now: Date;
  startsAt: Date;
  moving?: { id: string; paid: number; paymentIntentId: string | null };
  offerId?: string;
}

/**
 * Checks every rule of a placement inside its batch (put it before the writes): a rule that fails
 * aborts the batch with `placement:<rule>` (engine.ts names each).
 */
export function checkPlacement(db: D1Database, p: PlacementCheck): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO placement_checks (treatment_id, day, start_minute, duration_minutes, doctor_id, chair_id, patient_id,
         price_cents, max_unpaid, now, starts_at, moving_id, moving_paid, moving_intent, offer_id)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)`,
    )
    .bind(
      p.treatmentId,
      p.day,
      p.startMinute,
      p.durationMinutes,
      p.doctorId,
      p.chairId,
      p.patientId,
      p.priceCents,
      p.maxUnpaid,
      p.now.toISOString(),
      p.startsAt.toISOString(),
      p.moving?.id ?? null,
      p.moving?.paid ?? null,
      p.moving?.paymentIntentId ?? null,
      p.offerId ?? null,
    );
}

export interface NewBookingRow extends PaymentTerms {
  id: string;
  treatmentId: string;
  treatment: string;
  appointmentDate: string;
  slot: string;
  /** Minutes after midnight on the clinic's clock. */
  startMinute: number;
  durationMinutes: number;
  doctorId: string;
  chairId: string;
  userId: string;
  patientName: string;
  email: string;
  phone: string;
  priceCents: number;
  /** Now (ISO, UTC): when it is booked. */
  createdAt: string;
}

/** Marks the bookings of one family visit (after their inserts, in the same batch). */
export function markFamilyVisit(db: D1Database, familyVisitId: string, bookingIds: string[]): D1PreparedStatement {
  return db
    .prepare('UPDATE bookings SET family_visit_id = ?1 WHERE id IN (SELECT value FROM json_each(?2))')
    .bind(familyVisitId, JSON.stringify(bookingIds));
}

/**
 * Inserts a booking (checkPlacement goes before it); a second one of the treatment that date fails
 * on ONE_BOOKING_PER_PATIENT. A dependant's booking takes its account holder's address, whoever
 * booked it and however: every message about it (confirmation, receipt, reminder) reaches the holder.
 */
export function insertBooking(db: D1Database, b: NewBookingRow): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, doctor_id,
         chair_id, user_id, patient_name, email, phone, price_cents, created_at, hold_until, payment_rule, deposit_cents,
         no_show_fee_cents, late_cancel_fee_cents)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,
         coalesce((SELECT g.email FROM users p JOIN users g ON g.id = p.guardian_id WHERE p.id = ?10), ?12),
         ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)`,
    )
    .bind(
      b.id,
      b.treatmentId,
      b.treatment,
      b.appointmentDate,
      b.slot,
      b.startMinute,
      b.durationMinutes,
      b.doctorId,
      b.chairId,
      b.userId,
      b.patientName,
      b.email,
      b.phone,
      b.priceCents,
      b.createdAt,
      b.holdUntil,
      b.paymentRule,
      b.depositCents,
      b.noShowFeeCents,
      b.lateCancelFeeCents,
    );
}

export interface ClaimCells {
  day: string;
  resources: readonly string[];
  firstCell: number;
  lastCell: number;
}

/**
 * Claims the cells of a day on each resource for a booking, only when the booking exists (a batch
 * may have been told not to insert it). A cell already claimed fails the batch on ONE_CLAIM_PER_CELL.
 */
export function insertClaims(db: D1Database, bookingId: string, claim: ClaimCells): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO claims (day, resource, cell, booking_id)
       SELECT ?2, r.value, c.value, ?1 FROM json_each(?3) r, json_each(?4) c
       WHERE EXISTS (SELECT 1 FROM bookings WHERE id = ?1)`,
    )
    .bind(bookingId, claim.day, JSON.stringify(claim.resources), cellList(claim));
}

/**
 * Releases the unpaid bookings whose hold ended by `at` and that stand in a placement's way: a claim
 * on one of its resources' cells, or the patient's own booking of this treatment on this date. Put
 * them first in the placement's batch, followed by dropDeadClaims (which frees their claims).
 */
export function releaseLapsedHoldsInTheWay(
  db: D1Database,
  placement: { userId: string; treatmentId: string; claim: ClaimCells },
  at: Date,
): D1PreparedStatement[] {
  const release = (match: string) =>
    db.prepare(
      `UPDATE bookings AS b SET status = 'cancelled', cancel_reason = 'unpaid', cancelled_at = ?1, version = version + 1
       WHERE b.status = 'active' AND ${heldPastItsEnd('b', '?1')} AND ${match}`,
    );
  const { claim } = placement;
  return [
    release(
      `b.id IN (SELECT c.booking_id FROM claims c
                WHERE c.day = ?2 AND c.resource IN (SELECT value FROM json_each(?3)) AND c.cell BETWEEN ?4 AND ?5)`,
    ).bind(at.toISOString(), claim.day, JSON.stringify(claim.resources), claim.firstCell, claim.lastCell),
    release('b.user_id = ?2 AND b.treatment_id = ?3 AND b.appointment_date = ?4').bind(
      at.toISOString(),
      placement.userId,
      placement.treatmentId,
      claim.day,
    ),
  ];
}

/**
 * Deletes the claims of a day that no longer count for anything: a booking's that is no longer on
 * (cancelled or moved: put it after the statements that end bookings; an attended or missed
 * booking keeps its time), a timed hold's that expired by `now`.
 */
export function dropDeadClaims(db: D1Database, isoDate: string, now: Date): D1PreparedStatement {
  return db
    .prepare(
      `DELETE FROM claims WHERE day = ?1 AND (
         (booking_id IS NOT NULL AND NOT EXISTS (
           SELECT 1 FROM bookings b WHERE b.id = claims.booking_id AND b.status IN ('active', 'attended', 'no_show')))
         OR expires_at <= ?2)`,
    )
    .bind(isoDate, now.toISOString());
}

/** Frees a booking's claims once it is no longer active (put it after the statement that ends it). */
export function freeClaimsOfEndedBooking(db: D1Database, bookingId: string): D1PreparedStatement {
  return db
    .prepare(
      `DELETE FROM claims WHERE booking_id = ?1
         AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.id = ?1 AND b.status = 'active')`,
    )
    .bind(bookingId);
}

/**
 * Cancels an active booking (its version rises: the calendar's SEQUENCE); unless `evenPaid`, only
 * while it is unpaid (checked in the write). `note`: why the clinic cancelled it, in its words.
 */
export function cancelActiveBooking(
  db: D1Database,
  id: string,
  { evenPaid, by, note = null }: { evenPaid: boolean; by: 'patient' | 'admin'; note?: string | null },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings SET status = 'cancelled', cancel_reason = ?3, cancel_note = ?4, version = version + 1,
         cancelled_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE id = ?1 AND status = 'active' AND (?2 OR paid = 0)`,
    )
    .bind(id, evenPaid ? 1 : 0, by, note);
}

/** SQL: the active bookings whose hold ended by ?1 (the bookings_holds index finds them). */
const LAPSED = `SELECT b.id FROM bookings b WHERE b.status = 'active' AND b.paid = 0 AND b.hold_until IS NOT NULL AND b.hold_until <= ?1`;

/** Releases every unpaid booking whose hold ended by `now` and frees its claims: two statements for one batch. */
export function releaseLapsedHolds(db: D1Database, now: Date): D1PreparedStatement[] {
  const at = now.toISOString();
  return [
    db.prepare(`DELETE FROM claims WHERE booking_id IN (${LAPSED})`).bind(at),
    db
      .prepare(
        `UPDATE bookings SET status = 'cancelled', cancel_reason = 'unpaid', cancelled_at = ?1, version = version + 1
         WHERE id IN (${LAPSED})`,
      )
      .bind(at),
  ];
}

/** Remembers the payment intent handed out for a booking (one per booking). */
export function setPaymentIntent(db: D1Database, bookingId: string, intentId: string): D1PreparedStatement {
  return db.prepare('UPDATE bookings SET payment_intent_id = ?2 WHERE id = ?1').bind(bookingId, intentId);
}

/**
 * Marks an active, unpaid booking paid (a repeat changes nothing) when the payment recorded for it
 * by `transactionId` is not one owed back, with the start it has now (`startsAt`): its
 * free-cancellation window is measured from that start, whatever moves follow.
 */
export function markBookingPaid(
  db: D1Database,
  bookingId: string,
  transactionId: string,
  startsAt: Date,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings SET paid = 1, payment_error = NULL, paid_start_at = ?3
       WHERE id = ?1 AND status = 'active' AND paid = 0 AND EXISTS (
         SELECT 1 FROM payments p WHERE p.transaction_id = ?2 AND p.booking_id = ?1 AND p.refund_status IS NULL)`,
    )
    .bind(bookingId, transactionId, startsAt.toISOString());
}

/** Notes why the last payment of an unpaid booking failed (a failure never un-pays a booking). */
export function notePaymentFailure(db: D1Database, bookingId: string, message: string): D1PreparedStatement {
  return db.prepare('UPDATE bookings SET payment_error = ?2 WHERE id = ?1 AND paid = 0').bind(bookingId, message);
}

/**
 * Marks the upcoming bookings `change` strands for the front desk's review (needs_review = 1); put
 * it in the change's batch, before the change. A booking under review is the desk's: it no longer
 * has an online deadline to pay (hold_until NULL), so no sweep releases it while it waits.
 */
export function markStranded(db: D1Database, change: ScheduleChange, clock: StrandClock): D1PreparedStatement {
  const { where, params } = strandedWhere(change, clock);
  return db
    .prepare(
      `UPDATE bookings SET needs_review = 1, hold_until = NULL
       WHERE needs_review = 0 AND id IN (SELECT b.id FROM bookings b WHERE ${where})`,
    )
    .bind(...params);
}

/** The front desk kept an active booking as it is after a schedule change: it leaves the review list. */
export function clearReview(db: D1Database, bookingId: string): D1PreparedStatement {
  return db
    .prepare("UPDATE bookings SET needs_review = 0 WHERE id = ?1 AND status = 'active' AND needs_review = 1")
    .bind(bookingId);
}

export interface MoveRow {
  /** The booking moved, and what was read of it (the placement check makes sure it is still so). */
  from: { id: string; paid: number; paymentIntentId: string | null };
  to: {
    id: string;
    appointmentDate: string;
    slot: string;
    startMinute: number;
    durationMinutes: number;
    doctorId: string;
    chairId: string;
    holdUntil: string | null;
    /** The new start (UTC): a paid booking keeps the earlier of it and the start it was paid for. */
    startsAt: Date;
  };
  /** Now (ISO, UTC). */
  at: string;
}

/**
 * A reschedule's own writes, after its placement check: the old booking marked moved (its payment
 * intent handed on when paid), its claims freed, the new booking inserted with the old one's patient,
 * price, payment, calendar UID and a version one higher, the start its payment was made for (never
 * later than the new start), the old one linked to it, its payment moved. `audit` goes right after
 * the insert. Put the new booking's claims (insertClaims) after these.
 */
export function moveStatements(db: D1Database, move: MoveRow, audit?: D1PreparedStatement): D1PreparedStatement[] {
  const { from, to } = move;
  return [
    db
      .prepare(
        `UPDATE bookings SET status = 'moved', cancelled_at = ?2,
           payment_intent_id = CASE WHEN paid = 1 THEN NULL ELSE payment_intent_id END
         WHERE id = ?1 AND status = 'active'`,
      )
      .bind(from.id, move.at),
    freeClaimsOfEndedBooking(db, from.id),
    db
      .prepare(
        `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, doctor_id,
           chair_id, user_id, patient_name, email, phone, price_cents, paid, payment_intent_id, created_at, hold_until,
           calendar_uid, version, paid_start_at, desk_note, desk_note_version, payment_rule, deposit_cents, no_show_fee_cents,
           late_cancel_fee_cents)
         SELECT ?2, o.treatment_id, o.treatment, ?3, ?4, ?5, ?6, ?7, ?8, o.user_id, o.patient_name, o.email, o.phone,
           o.price_cents, o.paid, ?9, ?10, ?11, coalesce(o.calendar_uid, o.id), o.version + 1,
           CASE WHEN o.paid_start_at IS NULL THEN NULL ELSE min(o.paid_start_at, ?12) END, o.desk_note, o.desk_note_version,
           o.payment_rule, o.deposit_cents, o.no_show_fee_cents, o.late_cancel_fee_cents
         FROM bookings o WHERE o.id = ?1 AND o.status = 'moved' AND o.moved_to IS NULL`,
      )
      .bind(
        from.id,
        to.id,
        to.appointmentDate,
        to.slot,
        to.startMinute,
        to.durationMinutes,
        to.doctorId,
        to.chairId,
        from.paid === 1 ? from.paymentIntentId : null,
        move.at,
        to.holdUntil,
        to.startsAt.toISOString(),
      ),
    ...(audit ? [audit] : []),
    db
      .prepare(
        `UPDATE bookings SET moved_to = ?2
         WHERE id = ?1 AND status = 'moved' AND moved_to IS NULL AND EXISTS (SELECT 1 FROM bookings WHERE id = ?2)`,
      )
      .bind(from.id, to.id),
    db
      .prepare(
        `UPDATE payments SET booking_id = ?2
         WHERE booking_id = ?1 AND refund_status IS NULL AND EXISTS (SELECT 1 FROM bookings WHERE id = ?2)`,
      )
      .bind(from.id, to.id),
  ];
}

/**
 * Marks a booking attended or missed: one that is active and still counts at `at`, or already
 * marked the other way (the clinic corrects its mark), at `version` when one is given. 0 changes
 * when it was cancelled, moved or released meanwhile, or already says so.
 */
export function setAttendance(
  db: D1Database,
  id: string,
  status: 'attended' | 'no_show',
  at: string,
  version: number | null,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings SET status = ?2, needs_review = 0
       WHERE id = ?1 AND status != ?2 AND (?4 IS NULL OR version = ?4)
         AND (status IN ('attended', 'no_show') OR (status = 'active' AND ${liveBooking('bookings', '?3')}))`,
    )
    .bind(id, status, at, version);
}

/**
 * The front desk's note on a booking not moved, at the booking's `version` and the note's own
 * `noteVersion` when given (a note written on an older note is refused: 0 changes), and 0 changes
 * when it already says so.
 */
export function setDeskNote(
  db: D1Database,
  id: string,
  note: string | null,
  seen: { version: number | null; noteVersion: number | null },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings SET desk_note = ?2, desk_note_version = desk_note_version + 1
       WHERE id = ?1 AND status != 'moved' AND (?3 IS NULL OR version = ?3)
         AND (?4 IS NULL OR desk_note_version = ?4) AND desk_note IS NOT ?2`,
    )
    .bind(id, note, seen.version, seen.noteVersion);
}

/** The patient's answer to a reminder, on the booking at `version` while it is active; 0 changes when it already says so. */
export function setConfirmation(
  db: D1Database,
  id: string,
  version: number,
  answer: 'confirmed' | 'callback',
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bookings SET confirmation = ?3 WHERE id = ?1 AND version = ?2 AND status = 'active' AND confirmation != ?3`,
    )
    .bind(id, version, answer);
}

/**
 * Erases a patient: their record and their bookings keep their rows (payments, receipts and the
 * audit trail point at them) without their name, email or phone; their payments keep the money
 * without the email; their sign-in is cut (no Firebase uid, a new token version). Put it after the
 * statements that cancel their upcoming bookings, whose mails are queued to the address they had.
 */
export function erasePatient(db: D1Database, userId: string, now: Date): D1PreparedStatement[] {
  const placeholder = `erased-${userId}@erased.invalid`;
  return [
    db
      .prepare('UPDATE payments SET email = ?2 WHERE booking_id IN (SELECT id FROM bookings WHERE user_id = ?1)')
      .bind(userId, placeholder),
    db
      .prepare(`UPDATE bookings SET patient_name = 'Erased patient', email = ?2, phone = '' WHERE user_id = ?1`)
      .bind(userId, placeholder),
    db.prepare(`UPDATE waitlist SET status = 'left' WHERE user_id = ?1 AND status = 'waiting'`).bind(userId),
    db
      .prepare(
        `UPDATE users SET name = 'Erased patient', email = ?2, firebase_uid = NULL, photo_url = NULL, email_verified = 0,
           role = 'patient', token_version = token_version + 1, reminders_opt_out = 1, erased_at = ?3
         WHERE id = ?1 AND erased_at IS NULL`,
      )
      .bind(userId, placeholder, now.toISOString()),
  ];
}
