-- Day one at a real clinic (issue 25): a doctor's hours per weekday, and payments taken at the desk.

-- 1. A doctor's hours per weekday ("Mon 09:00-13:00, Wed 12:00-18:00"): one row per working
-- weekday. doctors.working_days, start_minute and end_minute stay as the summary (the weekdays, the
-- earliest start and the latest end); writing them as the uniform "these days, these hours" (a new
-- doctor, the seed, an older tool) rewrites the rows through the triggers below, and the app writes
-- its per-weekday rows after them.
CREATE TABLE doctor_hours (
  doctor_id    TEXT NOT NULL REFERENCES doctors (id) ON DELETE CASCADE,
  weekday      INTEGER NOT NULL CHECK (weekday BETWEEN 0 AND 6),
  start_minute INTEGER NOT NULL CHECK (start_minute BETWEEN 0 AND 1440 AND start_minute % 15 = 0),
  end_minute   INTEGER NOT NULL CHECK (end_minute BETWEEN 0 AND 1440 AND end_minute % 15 = 0),
  CHECK (start_minute < end_minute),
  PRIMARY KEY (doctor_id, weekday)
) WITHOUT ROWID;

INSERT INTO doctor_hours (doctor_id, weekday, start_minute, end_minute)
SELECT d.id, w.value, d.start_minute, d.end_minute
  FROM doctors d JOIN json_each('[0,1,2,3,4,5,6]') w ON (d.working_days >> w.value) & 1 = 1;

CREATE TRIGGER doctor_hours_of_new_doctor AFTER INSERT ON doctors
BEGIN
  INSERT INTO doctor_hours (doctor_id, weekday, start_minute, end_minute)
  SELECT NEW.id, w.value, NEW.start_minute, NEW.end_minute
    FROM json_each('[0,1,2,3,4,5,6]') w WHERE (NEW.working_days >> w.value) & 1 = 1;
END;

CREATE TRIGGER doctor_hours_of_uniform_change AFTER UPDATE OF working_days, start_minute, end_minute ON doctors
BEGIN
  DELETE FROM doctor_hours WHERE doctor_id = NEW.id;
  INSERT INTO doctor_hours (doctor_id, weekday, start_minute, end_minute)
  SELECT NEW.id, w.value, NEW.start_minute, NEW.end_minute
    FROM json_each('[0,1,2,3,4,5,6]') w WHERE (NEW.working_days >> w.value) & 1 = 1;
END;

-- The placement check (0011) reads the doctor's hours of the placement's weekday.
DROP TRIGGER placement_checks_run;
CREATE TRIGGER placement_checks_run INSTEAD OF INSERT ON placement_checks
BEGIN
  SELECT RAISE(ABORT, 'placement:booking_changed')
   WHERE NEW.moving_id IS NOT NULL AND NOT EXISTS (
     SELECT 1 FROM bookings b WHERE b.id = NEW.moving_id AND b.status = 'active'
        AND (b.paid = 1 OR b.hold_until IS NULL OR b.hold_until > NEW.now)
        AND b.paid = NEW.moving_paid AND b.payment_intent_id IS NEW.moving_intent);
  SELECT RAISE(ABORT, 'placement:offer_closed')
   WHERE NEW.offer_id IS NOT NULL AND NOT EXISTS (
     SELECT 1 FROM waitlist_offers o WHERE o.id = NEW.offer_id AND o.status = 'open' AND o.expires_at > NEW.now);
  SELECT RAISE(ABORT, 'placement:started') WHERE NEW.starts_at <= NEW.now;
  SELECT RAISE(ABORT, 'placement:treatment_inactive')
   WHERE NOT EXISTS (SELECT 1 FROM treatments t WHERE t.id = NEW.treatment_id AND t.active = 1);
  SELECT RAISE(ABORT, 'placement:clinic_closed')
   WHERE NOT EXISTS (
       SELECT 1 FROM clinic_hours h
        WHERE h.weekday = CAST(strftime('%w', NEW.day) AS INTEGER)
          AND h.open_minute <= NEW.start_minute AND NEW.start_minute + NEW.duration_minutes <= h.close_minute)
      OR EXISTS (SELECT 1 FROM closures c WHERE c.doctor_id IS NULL AND NEW.day BETWEEN c.from_date AND c.to_date);
  SELECT RAISE(ABORT, 'placement:doctor_unavailable')
   WHERE NOT EXISTS (
       SELECT 1 FROM doctors d
         JOIN treatments t ON t.id = NEW.treatment_id
         JOIN doctor_hours h ON h.doctor_id = d.id AND h.weekday = CAST(strftime('%w', NEW.day) AS INTEGER)
        WHERE d.id = NEW.doctor_id AND d.specialty_id = t.specialty_id
          AND h.start_minute <= NEW.start_minute AND NEW.start_minute + NEW.duration_minutes <= h.end_minute)
      OR EXISTS (SELECT 1 FROM closures c WHERE c.doctor_id = NEW.doctor_id AND NEW.day BETWEEN c.from_date AND c.to_date);
  SELECT RAISE(ABORT, 'placement:chair_missing') WHERE NOT EXISTS (SELECT 1 FROM chairs WHERE id = NEW.chair_id);
  SELECT RAISE(ABORT, 'placement:patient_busy')
   WHERE EXISTS (
     SELECT 1 FROM claims c
      WHERE c.day = NEW.day AND c.resource = 'patient:' || NEW.patient_id
        AND c.cell BETWEEN NEW.start_minute / 15 AND (NEW.start_minute + NEW.duration_minutes - 1) / 15
        AND (NEW.moving_id IS NULL OR c.booking_id IS NOT NEW.moving_id)
        AND (NEW.offer_id IS NULL OR c.hold_id IS NOT NEW.offer_id)
        AND (c.expires_at IS NULL OR c.expires_at > NEW.now)
        AND (c.booking_id IS NULL OR EXISTS (
          SELECT 1 FROM bookings b WHERE b.id = c.booking_id
            AND (b.paid = 1 OR b.hold_until IS NULL OR b.hold_until > NEW.now))));
  SELECT RAISE(ABORT, 'placement:doctor_taken')
   WHERE EXISTS (
     SELECT 1 FROM claims c
      WHERE c.day = NEW.day AND c.resource = 'doctor:' || NEW.doctor_id
        AND c.cell BETWEEN NEW.start_minute / 15 AND (NEW.start_minute + NEW.duration_minutes - 1) / 15
        AND (NEW.moving_id IS NULL OR c.booking_id IS NOT NEW.moving_id)
        AND (NEW.offer_id IS NULL OR c.hold_id IS NOT NEW.offer_id));
  SELECT RAISE(ABORT, 'placement:chair_taken')
   WHERE EXISTS (
     SELECT 1 FROM claims c
      WHERE c.day = NEW.day AND c.resource = 'chair:' || NEW.chair_id
        AND c.cell BETWEEN NEW.start_minute / 15 AND (NEW.start_minute + NEW.duration_minutes - 1) / 15
        AND (NEW.moving_id IS NULL OR c.booking_id IS NOT NEW.moving_id)
        AND (NEW.offer_id IS NULL OR c.hold_id IS NOT NEW.offer_id));
  SELECT RAISE(ABORT, 'placement:hold_limit')
   WHERE NEW.max_unpaid IS NOT NULL AND NEW.price_cents > 0
     AND (SELECT count(*) FROM bookings b
           WHERE b.user_id = NEW.patient_id AND b.status = 'active' AND b.paid = 0 AND b.hold_until > NEW.now
             AND b.id IS NOT NEW.moving_id)
       + (SELECT count(*) FROM waitlist_offers o JOIN waitlist w ON w.id = o.entry_id
           WHERE w.user_id = NEW.patient_id AND o.status = 'open' AND o.expires_at > NEW.now
             AND o.id IS NOT NEW.offer_id) >= NEW.max_unpaid;
END;

-- 2. Payments taken at the front desk (provider 'desk', in cash or by card on the clinic's own
-- terminal: `method`). Rebuilt for the provider's list (nothing references payments).
CREATE TABLE payments_new (
  id                  TEXT PRIMARY KEY,
  transaction_id      TEXT NOT NULL UNIQUE,
  booking_id          TEXT REFERENCES bookings (id) ON DELETE SET NULL,
  email               TEXT NOT NULL COLLATE NOCASE,
  amount_cents        INTEGER NOT NULL CHECK (amount_cents >= 0),
  currency            TEXT NOT NULL DEFAULT 'usd',
  provider            TEXT NOT NULL CHECK (provider IN ('stripe', 'demo', 'desk')),
  method              TEXT CHECK (method IS NULL OR method IN ('cash', 'card')),
  created_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  refund_status       TEXT CHECK (refund_status IN ('due', 'pending', 'succeeded', 'failed')),
  refund_reason       TEXT,
  refund_id           TEXT,
  refund_amount_cents INTEGER CHECK (refund_amount_cents >= 0),
  refund_failure      TEXT,
  refund_updated_at   TEXT,
  card_brand          TEXT CHECK (length(card_brand) <= 30),
  card_last4          TEXT CHECK (card_last4 GLOB '[0-9][0-9][0-9][0-9]'),
  CHECK ((provider = 'desk') = (method IS NOT NULL))
);
INSERT INTO payments_new (id, transaction_id, booking_id, email, amount_cents, currency, provider, created_at,
  refund_status, refund_reason, refund_id, refund_amount_cents, refund_failure, refund_updated_at, card_brand, card_last4)
SELECT id, transaction_id, booking_id, email, amount_cents, currency, provider, created_at,
  refund_status, refund_reason, refund_id, refund_amount_cents, refund_failure, refund_updated_at, card_brand, card_last4
  FROM payments;
DROP TABLE payments;
ALTER TABLE payments_new RENAME TO payments;
CREATE UNIQUE INDEX payments_one_per_booking ON payments (booking_id)
  WHERE booking_id IS NOT NULL AND refund_status IS NULL;
CREATE INDEX payments_refunds ON payments (refund_status, created_at) WHERE refund_status IS NOT NULL;
CREATE UNIQUE INDEX payments_refund_id ON payments (refund_id) WHERE refund_id IS NOT NULL;
