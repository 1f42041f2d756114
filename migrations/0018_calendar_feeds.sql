-- Calendar feeds (issue 29): a patient, and each doctor, can subscribe to a private iCalendar feed
-- at /api/feeds/<token>.ics. The token is a bearer secret: only its SHA-256 is kept. One live feed
-- per owner; a new one (POST /api/feeds) revokes the old in the same batch, and a revoked token
-- answers 404. A patient's feed is their account's; a doctor's is rotated by an admin.
CREATE TABLE calendar_feeds (
  token_hash TEXT PRIMARY KEY,
  owner_type TEXT NOT NULL CHECK (owner_type IN ('patient', 'doctor')),
  owner_id   TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  revoked_at TEXT
);
CREATE UNIQUE INDEX calendar_feeds_one_live ON calendar_feeds (owner_type, owner_id) WHERE revoked_at IS NULL;

-- The doctors' feeds name the treatment and the patient only when the clinic turns this on.
ALTER TABLE message_settings ADD COLUMN doctor_feed_names INTEGER NOT NULL DEFAULT 0
  CHECK (doctor_feed_names IN (0, 1));
