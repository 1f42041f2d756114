-- Patients come back (issue 26): the recall (the six-month cleaning), the patient's confirmation of
-- a booking by link or SMS, and SMS as a second channel.

-- 1. A treatment's recall interval in months (NULL: none). The cleaning and the check-up come back
--    every six months.
ALTER TABLE treatments ADD COLUMN recall_months INTEGER CHECK (recall_months IS NULL OR recall_months BETWEEN 1 AND 36);
UPDATE treatments SET recall_months = 6 WHERE name IN ('Teeth Cleaning', 'Dental Check-up');

-- 2. Whether the patient said they are coming ('confirmed') or asked the clinic to call ('callback').
ALTER TABLE bookings ADD COLUMN confirmation TEXT NOT NULL DEFAULT 'unconfirmed'
  CHECK (confirmation IN ('unconfirmed', 'confirmed', 'callback'));

-- 3. SMS: the patient's mobile number (E.164, '+' and 8-15 digits), their consent, and STOP (set by
--    a reply, cleared by START). A number belongs to one patient, so a reply finds its patient.
ALTER TABLE users ADD COLUMN sms_phone TEXT CHECK (sms_phone IS NULL OR (sms_phone GLOB '+[1-9]*'
  AND NOT substr(sms_phone, 2) GLOB '*[^0-9]*' AND length(sms_phone) BETWEEN 9 AND 16));
ALTER TABLE users ADD COLUMN sms_consent INTEGER NOT NULL DEFAULT 0 CHECK (sms_consent IN (0, 1));
ALTER TABLE users ADD COLUMN sms_stopped INTEGER NOT NULL DEFAULT 0 CHECK (sms_stopped IN (0, 1));
CREATE UNIQUE INDEX users_one_per_sms_phone ON users (sms_phone) WHERE sms_phone IS NOT NULL;

-- 4. The recall sequence's steps, in days from the due date, and when SMS may go out (clinic time).
ALTER TABLE message_settings ADD COLUMN recall_steps TEXT NOT NULL DEFAULT '[-14,0,30]'
  CHECK (json_valid(recall_steps) AND json_type(recall_steps) = 'array');

-- 5. Recalls: a patient is due for a treatment again. One open recall (due or contacted) per patient
--    and treatment; 'booked' once the patient books that treatment (the triggers below), 'closed'
--    when the desk closes it or a later visit replaces it.
CREATE TABLE recalls (
  id              TEXT PRIMARY KEY,
  patient_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  treatment_id    TEXT NOT NULL REFERENCES treatments (id) ON DELETE CASCADE,
  due_date        TEXT NOT NULL CHECK (due_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  status          TEXT NOT NULL DEFAULT 'due' CHECK (status IN ('due', 'contacted', 'booked', 'closed')),
  source          TEXT NOT NULL CHECK (source IN ('visit', 'desk', 'import')),
  attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_contact_at TEXT,
  do_not_contact  INTEGER NOT NULL DEFAULT 0 CHECK (do_not_contact IN (0, 1)),
  last_doctor_id  TEXT REFERENCES doctors (id) ON DELETE SET NULL,
  booking_id      TEXT,
  booked_at       TEXT,
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE UNIQUE INDEX recalls_one_open ON recalls (patient_id, treatment_id) WHERE status IN ('due', 'contacted');
CREATE INDEX recalls_by_due ON recalls (status, due_date);
CREATE INDEX recalls_by_booking ON recalls (booking_id) WHERE booking_id IS NOT NULL;

-- A visit marked attended makes the patient due again at its date plus the treatment's interval; an
-- open recall due no later is replaced by it.
CREATE TRIGGER recall_after_visit AFTER UPDATE OF status ON bookings
WHEN NEW.status = 'attended' AND OLD.status != 'attended'
  AND (SELECT recall_months FROM treatments WHERE id = NEW.treatment_id) IS NOT NULL
BEGIN
  UPDATE recalls SET status = 'closed'
   WHERE patient_id = NEW.user_id AND treatment_id = NEW.treatment_id AND status IN ('due', 'contacted')
     AND due_date <= date(NEW.appointment_date, '+' || (SELECT recall_months FROM treatments WHERE id = NEW.treatment_id) || ' months');
  INSERT INTO recalls (id, patient_id, treatment_id, due_date, source, last_doctor_id)
  SELECT lower(hex(randomblob(16))), NEW.user_id, NEW.treatment_id,
         date(NEW.appointment_date, '+' || t.recall_months || ' months'), 'visit', NEW.doctor_id
    FROM treatments t
   WHERE t.id = NEW.treatment_id
     AND NOT EXISTS (SELECT 1 FROM recalls r WHERE r.patient_id = NEW.user_id AND r.treatment_id = NEW.treatment_id
                       AND r.status IN ('due', 'contacted'));
END;

-- Booking the treatment, by any path, books the open recall (and stops its messages).
CREATE TRIGGER recall_booked AFTER INSERT ON bookings
WHEN NEW.status = 'active'
BEGIN
  UPDATE recalls SET status = 'booked', booking_id = NEW.id, booked_at = NEW.created_at
   WHERE patient_id = NEW.user_id AND treatment_id = NEW.treatment_id AND status IN ('due', 'contacted');
END;

-- A move carries the recall to the new booking (moved_to is set after the move's insert); a
-- cancellation or a release, by anyone, opens it again.
CREATE TRIGGER recall_follows_move AFTER UPDATE OF moved_to ON bookings
WHEN NEW.moved_to IS NOT NULL
BEGIN
  UPDATE recalls SET booking_id = NEW.moved_to WHERE booking_id = NEW.id;
END;

CREATE TRIGGER recall_reopened AFTER UPDATE OF status ON bookings
WHEN OLD.status = 'active' AND NEW.status = 'cancelled'
BEGIN
  UPDATE recalls SET status = 'contacted', booking_id = NULL, booked_at = NULL
   WHERE booking_id = NEW.id AND status = 'booked'
     AND NOT EXISTS (SELECT 1 FROM recalls r WHERE r.patient_id = recalls.patient_id
                       AND r.treatment_id = recalls.treatment_id AND r.status IN ('due', 'contacted'));
END;

-- 6. Every SMS in and out, and STOP/START: the log the demo provider writes instead of sending, and
--    the record of what a patient replied.
CREATE TABLE sms_log (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  direction  TEXT NOT NULL CHECK (direction IN ('out', 'in')),
  phone      TEXT NOT NULL,
  body       TEXT NOT NULL CHECK (length(body) <= 1600),
  provider   TEXT NOT NULL CHECK (provider IN ('demo', 'twilio')),
  provider_id TEXT,
  outcome    TEXT
);
CREATE INDEX sms_log_by_phone ON sms_log (phone, at);
