-- Messages to patients (issue 16): the mail outbox, appointment reminders, the patient's reminder
-- setting, the clinic's message settings, and the waitlist with its offers.
--
-- No foreign key points at bookings from here: rebuilding bookings (create new, copy, drop, rename)
-- would run ON DELETE actions on these tables. A reminder, a mail or an offer whose booking is gone
-- is simply not sent (the sender re-reads the booking).

-- A booking's version: a change of its time in place bumps it, so the reminders of the old time
-- (recorded with the old version) are never sent and the new time gets reminders of its own.
ALTER TABLE bookings ADD COLUMN version INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1);

-- A patient who does not want reminders (My Appointments): 1.
ALTER TABLE users ADD COLUMN reminders_opt_out INTEGER NOT NULL DEFAULT 0 CHECK (reminders_opt_out IN (0, 1));

-- The clinic's settings for messages, one row: the name and address every mail shows, whether a
-- second reminder goes out 2 hours before, and how long a waitlist offer holds its time.
CREATE TABLE message_settings (
  id                 INTEGER PRIMARY KEY CHECK (id = 1),
  clinic_name        TEXT NOT NULL CHECK (length(clinic_name) BETWEEN 1 AND 100),
  clinic_address     TEXT NOT NULL CHECK (length(clinic_address) BETWEEN 1 AND 200),
  clinic_phone       TEXT NOT NULL CHECK (length(clinic_phone) <= 40),
  second_reminder    INTEGER NOT NULL DEFAULT 0 CHECK (second_reminder IN (0, 1)),
  offer_hold_minutes INTEGER NOT NULL DEFAULT 30 CHECK (offer_hold_minutes BETWEEN 5 AND 1440)
);
INSERT INTO message_settings (id, clinic_name, clinic_address, clinic_phone)
VALUES (1, 'Smile Dental Clinic', '1200 Harbor Street, Brooklyn, NY 11201', '+1 (555) 010-2026');

-- Every mail to a patient is a row here first, written in the batch of the change it reports, so a
-- booking never fails because mail did. The outbox is drained right after the request and by the
-- Cron Trigger: a sender claims due rows (claim_token, claimed_until: a claim of a crashed sender
-- is taken over once it runs out), sends, and marks them sent; a failure is retried with backoff.
-- `data` is the booking as it was when the mail was queued (and what the mail needs besides).
-- dedupe_key makes each mail once: 'confirmation:<booking>', 'reminder:<reminder>', ...
CREATE TABLE outbox (
  id              TEXT PRIMARY KEY,
  dedupe_key      TEXT NOT NULL UNIQUE,
  kind            TEXT NOT NULL CHECK (kind IN ('confirmation', 'reschedule', 'cancellation', 'receipt', 'reminder', 'offer')),
  recipient       TEXT NOT NULL,
  booking_id      TEXT,
  -- For a reminder: it goes out only while its booking is still active at this version.
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
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending';

-- Reminders: one row per (booking, kind, booking version), written when the booking is made (or
-- moved). The cron claims due rows by compare-and-set (status 'pending' -> 'claimed' with its
-- token; a claim older than claimed_until is taken over), re-reads the booking (still active, same
-- version, same start) and only then queues the mail; a row past send_until is skipped as too late.
CREATE TABLE reminders (
  id               TEXT PRIMARY KEY,
  booking_id       TEXT NOT NULL,
  kind             TEXT NOT NULL CHECK (kind IN ('24h', '2h')),
  booking_version  INTEGER NOT NULL,
  appointment_date TEXT NOT NULL,
  start_minute     INTEGER NOT NULL,
  due_at           TEXT NOT NULL,
  send_until       TEXT NOT NULL,
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'claimed', 'sent', 'skipped')),
  claim_token      TEXT,
  claimed_until    TEXT,
  outcome          TEXT,
  UNIQUE (booking_id, kind, booking_version)
);
CREATE INDEX reminders_due ON reminders (due_at) WHERE status IN ('pending', 'claimed');

-- Unpaid bookings released for non-payment, by when: their mails are queued in the releasing batch.
CREATE INDEX bookings_released ON bookings (cancelled_at) WHERE cancel_reason = 'unpaid';

-- The waitlist: a patient waits for a treatment on a date or any day of a range (at most 14 days).
-- The line is by created_at. 'booked' once an offer was accepted, 'left' when the patient left.
CREATE TABLE waitlist (
  id           TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  treatment_id TEXT NOT NULL,
  from_date    TEXT NOT NULL CHECK (from_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  to_date      TEXT NOT NULL CHECK (to_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  status       TEXT NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'booked', 'left')),
  created_at   TEXT NOT NULL,
  CHECK (from_date <= to_date)
);
CREATE UNIQUE INDEX waitlist_one_per_patient ON waitlist (user_id, treatment_id, from_date, to_date) WHERE status = 'waiting';
CREATE INDEX waitlist_line ON waitlist (to_date, created_at) WHERE status = 'waiting';
CREATE INDEX waitlist_by_user ON waitlist (user_id, created_at);

-- An offer of a freed time to the first patient in line. Its id is the hold_id of the claims that
-- hold the doctor's and the chair's cells until expires_at, so nobody else can book them. Accepting
-- books it in one batch (only while 'open' and not expired: one booking, whoever races); declining
-- or expiry passes the time to the next in line. One open offer per entry.
CREATE TABLE waitlist_offers (
  id               TEXT PRIMARY KEY,
  entry_id         TEXT NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
  treatment_id     TEXT NOT NULL,
  day              TEXT NOT NULL,
  start_minute     INTEGER NOT NULL,
  duration_minutes INTEGER NOT NULL,
  slot             TEXT NOT NULL,
  doctor_id        TEXT NOT NULL,
  chair_id         TEXT NOT NULL,
  expires_at       TEXT NOT NULL,
  status           TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'declined', 'expired', 'withdrawn')),
  booking_id       TEXT,
  created_at       TEXT NOT NULL
);
CREATE UNIQUE INDEX waitlist_one_open_offer ON waitlist_offers (entry_id) WHERE status = 'open';
CREATE INDEX waitlist_offers_open ON waitlist_offers (expires_at) WHERE status = 'open';
CREATE INDEX waitlist_offers_by_entry ON waitlist_offers (entry_id, day, start_minute);
