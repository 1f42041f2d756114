-- One booking engine (issue 23): every change to a booking goes through worker/src/booking/engine.ts,
-- and the database enforces its rules.
--
-- 1. Claims cover the patient too ('patient:<user id>'), so the primary key of claims refuses a
--    patient in two places at once, as it refuses a doctor or a chair booked twice.
-- 2. placement_checks: a view whose INSTEAD OF INSERT trigger re-checks, inside the batch that
--    places a booking or an offer, every rule of the day (opening hours, closures, the doctor's days,
--    hours and specialty, the chair, the treatment being active, who holds the cells, the hold limit
--    counting unpaid bookings and open offers together). A rule that fails aborts the whole batch
--    with 'placement:<rule>', which the engine maps to one plain message.
-- 3. bookings: calendar_uid (one iCalendar UID per appointment for its whole life, across
--    reschedules; NULL means the booking's own id), paid_start_at (the start, UTC, the booking had
--    when it was paid: its free-cancellation window is measured from it, and a move carries it,
--    never later); version (0008) is the iCalendar SEQUENCE and rises on every move and cancellation.
-- 4. users.erased_at: a deleted patient's record is erased (anonymised), so that their payments,
--    bookings and the audit trail keep pointing at a row.
-- 5. outbox: any kind of message of the shape 'word_word', and the channel it goes through.

-- 1. Claims, rebuilt to allow the patient resource (nothing references claims, so a plain rebuild).
CREATE TABLE claims_new (
  day        TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  resource   TEXT NOT NULL CHECK (resource GLOB 'doctor:?*' OR resource GLOB 'chair:?*' OR resource GLOB 'patient:?*'),
  cell       INTEGER NOT NULL CHECK (cell BETWEEN 0 AND 95),
  booking_id TEXT REFERENCES bookings (id) ON DELETE CASCADE,
  hold_id    TEXT,
  expires_at TEXT,
  CHECK ((booking_id IS NULL) != (hold_id IS NULL)),
  PRIMARY KEY (day, resource, cell)
) WITHOUT ROWID;
INSERT INTO claims_new (day, resource, cell, booking_id, hold_id, expires_at)
SELECT day, resource, cell, booking_id, hold_id, expires_at FROM claims;
DROP TABLE claims;
ALTER TABLE claims_new RENAME TO claims;
CREATE INDEX claims_by_booking ON claims (booking_id) WHERE booking_id IS NOT NULL;
CREATE INDEX claims_by_hold ON claims (hold_id) WHERE hold_id IS NOT NULL;

-- Every booking that holds claims claims its patient for the same cells, the oldest booking first;
-- a booking that overlaps another of the same patient keeps what it could claim and is marked for
-- the front desk's review (the patient cannot be in two chairs at once).
INSERT OR IGNORE INTO claims (day, resource, cell, booking_id)
SELECT b.appointment_date, 'patient:' || b.user_id, b.start_minute / 15 + o.value, b.id
  FROM bookings b
  JOIN json_each('[0,1,2,3,4,5,6,7,8,9,10,11,12]') o
    ON b.start_minute / 15 + o.value <= (b.start_minute + b.duration_minutes - 1) / 15
 WHERE EXISTS (SELECT 1 FROM claims c WHERE c.booking_id = b.id)
 ORDER BY b.created_at, b.id, o.value;
UPDATE bookings SET needs_review = 1
 WHERE status = 'active'
   AND EXISTS (SELECT 1 FROM claims c WHERE c.booking_id = bookings.id)
   AND (SELECT count(*) FROM claims c WHERE c.booking_id = bookings.id AND c.resource GLOB 'patient:*')
       < (start_minute + duration_minutes - 1) / 15 - start_minute / 15 + 1;

-- 2. The rules every placement re-checks in its own batch. Insert one row with the placement's
-- values; nothing is stored. Cells are minute / 15; weekdays 0 Sunday .. 6 Saturday.
--   treatment_id, day, start_minute, duration_minutes, doctor_id, chair_id, patient_id, price_cents
--   max_unpaid   the hold limit (NULL: none, as for a move or the front desk's override)
--   now          the instant of the change (ISO, UTC); starts_at its start (ISO, UTC)
--   moving_id, moving_paid, moving_intent
--                a booking being moved: it must still be active, live, with that paid flag and
--                payment intent; its own claims do not count as taken
--   offer_id     an offer being accepted (it must be open and unexpired; its held cells are its
--                patient's), or NULL
CREATE VIEW placement_checks AS
SELECT NULL AS treatment_id, NULL AS day, NULL AS start_minute, NULL AS duration_minutes, NULL AS doctor_id,
       NULL AS chair_id, NULL AS patient_id, NULL AS price_cents, NULL AS max_unpaid, NULL AS now, NULL AS starts_at,
       NULL AS moving_id, NULL AS moving_paid, NULL AS moving_intent, NULL AS offer_id
 WHERE 0;

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
       SELECT 1 FROM doctors d JOIN treatments t ON t.id = NEW.treatment_id
        WHERE d.id = NEW.doctor_id AND d.specialty_id = t.specialty_id
          AND (d.working_days >> CAST(strftime('%w', NEW.day) AS INTEGER)) & 1 = 1
          AND d.start_minute <= NEW.start_minute AND NEW.start_minute + NEW.duration_minutes <= d.end_minute)
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

-- 3. An appointment's calendar identity, and the start its payment was made for.
ALTER TABLE bookings ADD COLUMN calendar_uid TEXT;
ALTER TABLE bookings ADD COLUMN paid_start_at TEXT;
-- Existing reschedules: each booking of a chain of moves takes the UID of the first, and its
-- version (the SEQUENCE) counts the moves; their pending reminders follow the version.
CREATE TABLE booking_chains AS
WITH RECURSIVE chain (id, root, depth) AS (
  SELECT b.id, b.id, 1 FROM bookings b WHERE NOT EXISTS (SELECT 1 FROM bookings p WHERE p.moved_to = b.id)
  UNION ALL
  SELECT b.moved_to, chain.root, chain.depth + 1 FROM bookings b JOIN chain ON b.id = chain.id WHERE b.moved_to IS NOT NULL
)
SELECT id, root, depth FROM chain WHERE depth > 1;
UPDATE bookings SET calendar_uid = c.root, version = c.depth FROM booking_chains c WHERE c.id = bookings.id;
UPDATE reminders SET booking_version = b.version
  FROM bookings b WHERE b.id = reminders.booking_id AND reminders.status = 'pending' AND b.version != reminders.booking_version;
DROP TABLE booking_chains;

-- 4. Erased patients.
ALTER TABLE users ADD COLUMN erased_at TEXT;

-- 5. The outbox, rebuilt (nothing references it): kinds checked by shape, so a new kind of message
-- needs no migration, and the channel each row goes through.
CREATE TABLE outbox_new (
  id              TEXT PRIMARY KEY,
  dedupe_key      TEXT NOT NULL UNIQUE,
  kind            TEXT NOT NULL CHECK (length(kind) <= 32 AND kind GLOB '[a-z]*' AND NOT kind GLOB '*[^a-z_]*'),
  channel         TEXT NOT NULL DEFAULT 'mail' CHECK (channel IN ('mail', 'sms')),
  recipient       TEXT NOT NULL,
  booking_id      TEXT,
  booking_version INTEGER,
  data            TEXT NOT NULL CHECK (json_valid(data)),
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dropped', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at TEXT NOT NULL,
  claim_token     TEXT,
  claimed_until   TEXT,
  last_error      TEXT,
  created_at      TEXT NOT NULL,
  sent_at         TEXT
);
INSERT INTO outbox_new (id, dedupe_key, kind, recipient, booking_id, booking_version, data, status, attempts,
  next_attempt_at, claim_token, claimed_until, last_error, created_at, sent_at)
SELECT id, dedupe_key, kind, recipient, booking_id, booking_version, data, status, attempts,
  next_attempt_at, claim_token, claimed_until, last_error, created_at, sent_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_by_recipient ON outbox (recipient, created_at);
