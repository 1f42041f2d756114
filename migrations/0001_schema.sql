-- The whole product's schema. Money in integer cents, dates as ISO yyyy-MM-dd in the clinic's
-- time zone, timestamps in UTC (ISO 8601). Booking rules live in constraints, not only in code.

CREATE TABLE users (
  id         TEXT PRIMARY KEY,
  email      TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name       TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  photo_url  TEXT,
  role       TEXT NOT NULL DEFAULT 'patient' CHECK (role IN ('patient', 'admin')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- The spec's "appointment options": what a patient books, each with its price and daily slots.
CREATE TABLE treatments (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
  position    INTEGER NOT NULL DEFAULT 0
);

-- A treatment's half-hour slots, as shown ("09.00 AM - 09.30 AM") and as minutes after
-- midnight in the clinic's time zone (to hide slots that have started).
CREATE TABLE treatment_slots (
  treatment_id TEXT NOT NULL REFERENCES treatments (id) ON DELETE CASCADE,
  slot         TEXT NOT NULL,
  start_minute INTEGER NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
  PRIMARY KEY (treatment_id, slot),
  UNIQUE (treatment_id, start_minute)
);

CREATE TABLE bookings (
  id                TEXT PRIMARY KEY,
  treatment_id      TEXT NOT NULL,
  treatment         TEXT NOT NULL,
  appointment_date  TEXT NOT NULL CHECK (appointment_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  slot              TEXT NOT NULL,
  user_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  patient_name      TEXT NOT NULL,
  email             TEXT NOT NULL COLLATE NOCASE,
  phone             TEXT NOT NULL DEFAULT '' CHECK (length(phone) <= 40),
  price_cents       INTEGER NOT NULL CHECK (price_cents >= 0),
  paid              INTEGER NOT NULL DEFAULT 0 CHECK (paid IN (0, 1)),
  payment_intent_id TEXT UNIQUE,
  payment_error     TEXT,
  status            TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled')),
  created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  cancelled_at      TEXT,
  FOREIGN KEY (treatment_id, slot) REFERENCES treatment_slots (treatment_id, slot)
);
-- No slot is ever booked twice, whatever the timing of the requests.
CREATE UNIQUE INDEX bookings_one_per_slot
  ON bookings (treatment_id, appointment_date, slot) WHERE status = 'active';
-- One booking per patient per treatment per date.
CREATE UNIQUE INDEX bookings_one_per_patient
  ON bookings (user_id, treatment_id, appointment_date) WHERE status = 'active';
CREATE INDEX bookings_by_user ON bookings (user_id, appointment_date, slot);

CREATE TABLE payments (
  id             TEXT PRIMARY KEY,
  transaction_id TEXT NOT NULL UNIQUE,
  booking_id     TEXT REFERENCES bookings (id) ON DELETE SET NULL,
  email          TEXT NOT NULL COLLATE NOCASE,
  amount_cents   INTEGER NOT NULL CHECK (amount_cents >= 0),
  currency       TEXT NOT NULL DEFAULT 'usd',
  provider       TEXT NOT NULL CHECK (provider IN ('stripe', 'demo')),
  created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
-- A booking is paid once.
CREATE UNIQUE INDEX payments_one_per_booking ON payments (booking_id) WHERE booking_id IS NOT NULL;

-- Webhook deliveries already handled: the event id is written in the same batch as its effect.
CREATE TABLE stripe_events (
  id          TEXT PRIMARY KEY,
  type        TEXT NOT NULL,
  created     INTEGER NOT NULL,
  received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE doctors (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  email      TEXT NOT NULL UNIQUE COLLATE NOCASE,
  specialty  TEXT NOT NULL,
  image_key  TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE reviews (
  id         TEXT PRIMARY KEY,
  user_id    TEXT REFERENCES users (id) ON DELETE SET NULL,
  name       TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  img        TEXT NOT NULL DEFAULT '',
  review     TEXT NOT NULL CHECK (length(review) BETWEEN 1 AND 1000),
  location   TEXT NOT NULL CHECK (length(location) BETWEEN 1 AND 100),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX reviews_newest ON reviews (created_at DESC);

-- Contact form messages; a replayed Idempotency-Key stores and mails nothing twice.
CREATE TABLE contact_messages (
  id              TEXT PRIMARY KEY,
  idempotency_key TEXT NOT NULL UNIQUE,
  user_name       TEXT NOT NULL,
  user_email      TEXT NOT NULL,
  subject         TEXT NOT NULL,
  message         TEXT NOT NULL,
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  -- Set while one request is mailing the message, so concurrent replays never mail it twice.
  mail_claimed_at TEXT,
  mailed_at       TEXT
);
