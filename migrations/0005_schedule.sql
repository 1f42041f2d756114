-- The clinic's real schedule (issue 14): specialties, doctors' working days and hours, chairs,
-- opening hours, closures, treatment lengths, and claims: one row per 15-minute cell a booking
-- takes of its doctor and of its chair, under a primary key that makes any overlap impossible.
--
-- Times of day are minutes after midnight on the clinic's wall clock (CLINIC_TIME_ZONE); a cell is
-- minute / 15 (0..95). Weekdays are 0 Sunday .. 6 Saturday (strftime('%w')).
--
-- Order matters: SQLite cannot alter a CHECK or a foreign key, so doctors, bookings and treatments
-- are rebuilt (create new, copy, drop, rename), and dropping a table runs its foreign keys' ON
-- DELETE actions on every table that references it (even with defer_foreign_keys): each table is
-- rebuilt while nothing references it, and payments (which reference bookings) are set aside and
-- put back around the bookings rebuild.

CREATE TABLE specialties (
  id       TEXT PRIMARY KEY,
  name     TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 100),
  position INTEGER NOT NULL DEFAULT 0
);
INSERT INTO specialties (id, name, position) VALUES
  ('general-dentistry', 'General Dentistry', 0),
  ('endodontics', 'Endodontics', 1),
  ('cosmetic-dentistry', 'Cosmetic Dentistry', 2),
  ('orthodontics', 'Orthodontics', 3);

-- The seed treatments' specialties and lengths; any other treatment is General Dentistry, 30 minutes.
CREATE TABLE treatment_plan (treatment_id TEXT PRIMARY KEY, specialty_id TEXT NOT NULL, duration_minutes INTEGER NOT NULL);
INSERT INTO treatment_plan (treatment_id, specialty_id, duration_minutes) VALUES
  ('dental-checkup', 'general-dentistry', 30),
  ('teeth-cleaning', 'general-dentistry', 30),
  ('fluoride-treatment', 'general-dentistry', 30),
  ('cavity-filling', 'general-dentistry', 60),
  ('teeth-whitening', 'cosmetic-dentistry', 60),
  ('orthodontic-consultation', 'orthodontics', 60),
  ('root-canal', 'endodontics', 90);

-- The clinic's operatories: every booking takes one for its whole length. Two to start with.
CREATE TABLE chairs (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 50),
  position   INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO chairs (id, name, position) VALUES ('chair-1', 'Chair 1', 0), ('chair-2', 'Chair 2', 1);

-- Opening hours per weekday; a weekday without a row is closed. Every day 09:00-17:00 to start
-- with (the product's opening hours).
CREATE TABLE clinic_hours (
  weekday      INTEGER PRIMARY KEY CHECK (weekday BETWEEN 0 AND 6),
  open_minute  INTEGER NOT NULL CHECK (open_minute BETWEEN 0 AND 1440 AND open_minute % 15 = 0),
  close_minute INTEGER NOT NULL CHECK (close_minute BETWEEN 0 AND 1440 AND close_minute % 15 = 0),
  CHECK (open_minute < close_minute)
);
INSERT INTO clinic_hours (weekday, open_minute, close_minute) VALUES
  (0, 540, 1020), (1, 540, 1020), (2, 540, 1020), (3, 540, 1020), (4, 540, 1020), (5, 540, 1020), (6, 540, 1020);

-- Doctors: a specialty (their old `specialty` was a treatment's name: it maps to that treatment's
-- specialty, or to the specialty of that name, else General Dentistry), working weekdays as a
-- bit mask (bit d = weekday d; 127 every day) and hours. Existing doctors work every day,
-- 09:00-17:00. Rebuilt while nothing references doctors.
CREATE TABLE doctors_new (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  email        TEXT NOT NULL UNIQUE COLLATE NOCASE,
  specialty_id TEXT NOT NULL REFERENCES specialties (id),
  working_days INTEGER NOT NULL DEFAULT 127 CHECK (working_days BETWEEN 0 AND 127),
  start_minute INTEGER NOT NULL DEFAULT 540 CHECK (start_minute BETWEEN 0 AND 1440 AND start_minute % 15 = 0),
  end_minute   INTEGER NOT NULL DEFAULT 1020 CHECK (end_minute BETWEEN 0 AND 1440 AND end_minute % 15 = 0),
  image_key    TEXT NOT NULL UNIQUE,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CHECK (start_minute < end_minute)
);
INSERT INTO doctors_new (id, name, email, specialty_id, image_key, created_at)
SELECT d.id, d.name, d.email,
       coalesce(
         (SELECT p.specialty_id FROM treatments t JOIN treatment_plan p ON p.treatment_id = t.id WHERE t.name = d.specialty),
         (SELECT s.id FROM specialties s WHERE s.name = d.specialty),
         'general-dentistry'),
       d.image_key, d.created_at
  FROM doctors d;
DROP TABLE doctors;
ALTER TABLE doctors_new RENAME TO doctors;

-- Days (inclusive) when the clinic, or one doctor (doctor_id), sees no patients.
CREATE TABLE closures (
  id         TEXT PRIMARY KEY,
  from_date  TEXT NOT NULL CHECK (from_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  to_date    TEXT NOT NULL CHECK (to_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  reason     TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 200),
  doctor_id  TEXT REFERENCES doctors (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CHECK (from_date <= to_date)
);
CREATE INDEX closures_by_date ON closures (to_date, from_date);

-- Bookings: their start (minutes after midnight), length, doctor and chair, and needs_review (the
-- front desk must look at it: it could not get all its claims, or a schedule change was forced
-- over it). No foreign key to treatment_slots any more. The status list gains the front desk's
-- states (issue 15), so that change needs no rebuild.
CREATE TABLE bookings_new (
  id                TEXT PRIMARY KEY,
  treatment_id      TEXT NOT NULL,
  treatment         TEXT NOT NULL,
  appointment_date  TEXT NOT NULL CHECK (appointment_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  slot              TEXT NOT NULL,
  start_minute      INTEGER NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
  duration_minutes  INTEGER NOT NULL CHECK (duration_minutes BETWEEN 15 AND 180 AND duration_minutes % 15 = 0),
  doctor_id         TEXT REFERENCES doctors (id) ON DELETE SET NULL,
  chair_id          TEXT REFERENCES chairs (id) ON DELETE SET NULL,
  needs_review      INTEGER NOT NULL DEFAULT 0 CHECK (needs_review IN (0, 1)),
  user_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  patient_name      TEXT NOT NULL,
  email             TEXT NOT NULL COLLATE NOCASE,
  phone             TEXT NOT NULL DEFAULT '' CHECK (length(phone) <= 40),
  price_cents       INTEGER NOT NULL CHECK (price_cents >= 0),
  paid              INTEGER NOT NULL DEFAULT 0 CHECK (paid IN (0, 1)),
  payment_intent_id TEXT UNIQUE,
  payment_error     TEXT,
  status            TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled', 'attended', 'no_show', 'moved')),
  created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  cancelled_at      TEXT,
  hold_until        TEXT,
  cancel_reason     TEXT CHECK (cancel_reason IN ('patient', 'admin', 'unpaid'))
);
-- Existing bookings were half-hour slots and keep that length (what their patients were told);
-- the start comes from their slot (or, failing that, from the label "09.30 AM - 10.00 AM").
INSERT INTO bookings_new (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, user_id,
  patient_name, email, phone, price_cents, paid, payment_intent_id, payment_error, status, created_at, cancelled_at,
  hold_until, cancel_reason)
SELECT b.id, b.treatment_id, b.treatment, b.appointment_date, b.slot,
       coalesce(s.start_minute,
         ((CAST(substr(b.slot, 1, 2) AS INTEGER) % 12) + (CASE substr(b.slot, 7, 2) WHEN 'PM' THEN 12 ELSE 0 END)) * 60
           + CAST(substr(b.slot, 4, 2) AS INTEGER)),
       30, b.user_id, b.patient_name, b.email, b.phone, b.price_cents, b.paid, b.payment_intent_id, b.payment_error,
       b.status, b.created_at, b.cancelled_at, b.hold_until, b.cancel_reason
  FROM bookings b LEFT JOIN treatment_slots s ON s.treatment_id = b.treatment_id AND s.slot = b.slot;

-- Payments reference bookings: set them aside, so dropping the old bookings cannot null their booking_id.
CREATE TABLE payments_kept AS SELECT * FROM payments;
DROP TABLE payments;
DROP TABLE bookings;
ALTER TABLE bookings_new RENAME TO bookings;
CREATE TABLE payments (
  id             TEXT PRIMARY KEY,
  transaction_id TEXT NOT NULL UNIQUE,
  booking_id     TEXT REFERENCES bookings (id) ON DELETE SET NULL,
  email          TEXT NOT NULL COLLATE NOCASE,
  amount_cents   INTEGER NOT NULL CHECK (amount_cents >= 0),
  currency       TEXT NOT NULL DEFAULT 'usd',
  provider       TEXT NOT NULL CHECK (provider IN ('stripe', 'demo')),
  created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  refund_status  TEXT CHECK (refund_status IN ('due', 'pending', 'succeeded', 'failed')),
  refund_reason  TEXT
);
INSERT INTO payments (id, transaction_id, booking_id, email, amount_cents, currency, provider, created_at, refund_status, refund_reason)
SELECT id, transaction_id, booking_id, email, amount_cents, currency, provider, created_at, refund_status, refund_reason FROM payments_kept;
DROP TABLE payments_kept;
CREATE UNIQUE INDEX payments_one_per_booking ON payments (booking_id)
  WHERE booking_id IS NOT NULL AND refund_status IS NULL;
CREATE INDEX payments_refunds ON payments (refund_status, created_at) WHERE refund_status IS NOT NULL;

DROP TABLE treatment_slots;

-- Treatments: a length (15-minute cells, 15 to 180 minutes), the specialty that performs it, and
-- an active flag (an inactive one is not offered; its bookings stay).
CREATE TABLE treatments_new (
  id               TEXT PRIMARY KEY,
  name             TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
  price_cents      INTEGER NOT NULL CHECK (price_cents >= 0),
  duration_minutes INTEGER NOT NULL CHECK (duration_minutes BETWEEN 15 AND 180 AND duration_minutes % 15 = 0),
  specialty_id     TEXT NOT NULL REFERENCES specialties (id),
  active           INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  position         INTEGER NOT NULL DEFAULT 0
);
INSERT INTO treatments_new (id, name, price_cents, duration_minutes, specialty_id, position)
SELECT t.id, t.name, t.price_cents, coalesce(p.duration_minutes, 30), coalesce(p.specialty_id, 'general-dentistry'), t.position
  FROM treatments t LEFT JOIN treatment_plan p ON p.treatment_id = t.id;
DROP TABLE treatments;
ALTER TABLE treatments_new RENAME TO treatments;
DROP TABLE treatment_plan;

-- One booking per patient per treatment per date (the one-per-slot index goes: claims replace it).
CREATE UNIQUE INDEX bookings_one_per_patient
  ON bookings (user_id, treatment_id, appointment_date) WHERE status = 'active';
CREATE INDEX bookings_by_user ON bookings (user_id, appointment_date, start_minute);
CREATE INDEX bookings_holds ON bookings (hold_until) WHERE status = 'active' AND paid = 0 AND hold_until IS NOT NULL;
-- Upcoming bookings by date: what a schedule change would strand, a day's schedule.
CREATE INDEX bookings_by_date ON bookings (appointment_date, start_minute) WHERE status = 'active';

-- A claim: one 15-minute cell of a day taken on one resource ('doctor:<id>' or 'chair:<id>'), by a
-- booking or by a timed hold (the waitlist's offers, issue 16: hold_id and expires_at). The
-- primary key is what makes an overlap impossible: two bookings can never share a doctor or a
-- chair for even one cell, whatever the timing. Cancelling a booking deletes its claims in the
-- same batch; a claim whose booking is unpaid past its hold, or whose hold has expired, no longer
-- counts and is deleted by the next booking that needs its cell.
CREATE TABLE claims (
  day        TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  resource   TEXT NOT NULL CHECK (resource GLOB 'doctor:?*' OR resource GLOB 'chair:?*'),
  cell       INTEGER NOT NULL CHECK (cell BETWEEN 0 AND 95),
  booking_id TEXT REFERENCES bookings (id) ON DELETE CASCADE,
  hold_id    TEXT,
  expires_at TEXT,
  CHECK ((booking_id IS NULL) != (hold_id IS NULL)),
  PRIMARY KEY (day, resource, cell)
) WITHOUT ROWID;
CREATE INDEX claims_by_booking ON claims (booking_id) WHERE booking_id IS NOT NULL;

-- Existing active bookings get a doctor of their treatment's specialty and a chair, picked
-- deterministically: the k-th booking (oldest first) of a specialty at one date and start gets
-- that specialty's k-th doctor, the k-th booking at one date and start the k-th chair.
CREATE TABLE booking_assignments (booking_id TEXT PRIMARY KEY, doctor_id TEXT, chair_id TEXT);
INSERT INTO booking_assignments (booking_id, doctor_id, chair_id)
WITH ranked AS (
  SELECT b.id, t.specialty_id,
         row_number() OVER (PARTITION BY b.appointment_date, b.start_minute, t.specialty_id ORDER BY b.created_at, b.id) - 1 AS dk,
         row_number() OVER (PARTITION BY b.appointment_date, b.start_minute ORDER BY b.created_at, b.id) - 1 AS ck
    FROM bookings b JOIN treatments t ON t.id = b.treatment_id
   WHERE b.status = 'active'
),
staff AS (
  SELECT id, specialty_id, row_number() OVER (PARTITION BY specialty_id ORDER BY created_at, id) - 1 AS k,
         count(*) OVER (PARTITION BY specialty_id) AS n
    FROM doctors
),
seats AS (SELECT id, row_number() OVER (ORDER BY position, id) - 1 AS k, count(*) OVER () AS n FROM chairs)
SELECT r.id, staff.id, seats.id
  FROM ranked r
  LEFT JOIN staff ON staff.specialty_id = r.specialty_id AND staff.k = r.dk % staff.n
  LEFT JOIN seats ON seats.k = r.ck % seats.n;
UPDATE bookings SET doctor_id = a.doctor_id, chair_id = a.chair_id
  FROM booking_assignments a WHERE a.booking_id = bookings.id;
DROP TABLE booking_assignments;

-- Their claims, oldest booking first: where legacy bookings overlap (possible under the old
-- rules), the older one keeps the cell.
INSERT OR IGNORE INTO claims (day, resource, cell, booking_id)
SELECT b.appointment_date, r.resource, b.start_minute / 15 + o.value, b.id
  FROM bookings b
  JOIN (SELECT id, 'doctor:' || doctor_id AS resource FROM bookings WHERE doctor_id IS NOT NULL
        UNION ALL SELECT id, 'chair:' || chair_id FROM bookings WHERE chair_id IS NOT NULL) r ON r.id = b.id
  JOIN json_each('[0,1,2,3,4,5,6,7,8,9,10,11,12]') o
    ON b.start_minute / 15 + o.value <= (b.start_minute + b.duration_minutes - 1) / 15
 WHERE b.status = 'active'
 ORDER BY b.created_at, b.id, r.resource, o.value;

-- A booking without a doctor or chair, or that could not claim every cell, is kept for the front
-- desk to look at (it keeps the claims it got).
UPDATE bookings SET needs_review = 1
 WHERE status = 'active'
   AND (doctor_id IS NULL OR chair_id IS NULL
        OR (SELECT count(*) FROM claims c WHERE c.booking_id = bookings.id)
           < 2 * ((start_minute + duration_minutes - 1) / 15 - start_minute / 15 + 1));
