-- Issue 44: what happened to a booking, once.
--
-- 1. Domain events. Every change the booking engine makes appends one row here in the same
--    db.batch() as the change: its type, the booking (and family visit, or waitlist offer) it is
--    about, the booking's version, who acted, when, and a small JSON payload (no names, addresses
--    or phone numbers: those stay on the rows the event points at, where erasure reaches them).
--    Append-only: a trigger refuses every UPDATE and DELETE. `seq` orders them.
CREATE TABLE events (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  type            TEXT NOT NULL CHECK (length(type) <= 40 AND type GLOB '[a-z]*.[a-z]*' AND NOT type GLOB '*[^a-z_.]*'),
  booking_id      TEXT,
  family_visit_id TEXT,
  offer_id        TEXT,
  version         INTEGER,
  actor           TEXT NOT NULL,
  at              TEXT NOT NULL,
  payload         TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload) AND length(payload) <= 2000)
);
CREATE INDEX events_booking ON events (booking_id, seq) WHERE booking_id IS NOT NULL;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: an event cannot be changed');
END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: an event cannot be deleted');
END;

-- 2. Handing events to the queue (the relay): a request claims the events its batch appended and
--    sends them to the queue; `sent_at` says the queue took them. A claim whose send never happened
--    (the Worker died between commit and enqueue) is sent again by the Cron Trigger's relay, and so
--    is an event nobody claimed. A claim is one row per event: two relays cannot both claim one.
CREATE TABLE event_dispatch (
  seq        INTEGER PRIMARY KEY REFERENCES events (seq),
  claimed_at TEXT NOT NULL,
  sent_at    TEXT
);
CREATE INDEX event_dispatch_unsent ON event_dispatch (claimed_at) WHERE sent_at IS NULL;

-- 3. Exactly once per (event, consumer): a consumer writes its row here in the same batch as its
--    own changes (a mail queued, a refund asked), so a redelivered event changes nothing twice.
CREATE TABLE event_deliveries (
  seq          INTEGER NOT NULL REFERENCES events (seq),
  consumer     TEXT NOT NULL,
  delivered_at TEXT NOT NULL,
  PRIMARY KEY (seq, consumer)
) WITHOUT ROWID;

-- 4. Events the queue gave up on after its retries (its dead-letter queue): the owner sees them
--    and replays them from the Messages screen.
CREATE TABLE dead_events (
  seq         INTEGER PRIMARY KEY REFERENCES events (seq),
  failed_at   TEXT NOT NULL,
  attempts    INTEGER NOT NULL,
  replayed_at TEXT
);
