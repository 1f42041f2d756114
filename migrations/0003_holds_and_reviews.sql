-- Unpaid bookings are held for a while, then released; reviews wait for an admin's approval.

-- When the hold of an unpaid booking of a priced treatment ends (UTC, ISO 8601, written when
-- it is booked); NULL for a free treatment. Once it has passed and the booking is still unpaid,
-- the booking no longer holds its slot and is released (cancelled with cancel_reason 'unpaid').
ALTER TABLE bookings ADD COLUMN hold_until TEXT;
ALTER TABLE bookings ADD COLUMN cancel_reason TEXT CHECK (cancel_reason IN ('patient', 'admin', 'unpaid'));
-- The sweep finds the holds that have ended.
CREATE INDEX bookings_holds ON bookings (hold_until) WHERE status = 'active' AND paid = 0 AND hold_until IS NOT NULL;

-- Existing unpaid, upcoming bookings of priced treatments get 24 hours from this upgrade to be
-- paid (they were booked before holds existed); past and paid ones are left as they were.
UPDATE bookings
   SET hold_until = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+24 hours')
 WHERE status = 'active' AND paid = 0 AND price_cents > 0 AND appointment_date >= date('now');

-- Reviews: one per patient, and a status an admin sets. SQLite cannot add a CHECK to a table,
-- so the table is rebuilt. Reviews without an account (the clinic's own) stay published; a
-- patient's newest review is kept and waits for approval (nobody approved them before); a
-- patient's older reviews are dropped.
CREATE TABLE reviews_new (
  id         TEXT PRIMARY KEY,
  user_id    TEXT REFERENCES users (id) ON DELETE SET NULL,
  name       TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  img        TEXT NOT NULL DEFAULT '',
  review     TEXT NOT NULL CHECK (length(review) BETWEEN 1 AND 1000),
  location   TEXT NOT NULL CHECK (length(location) BETWEEN 1 AND 100),
  status     TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'hidden')),
  -- Goes up with every edit, so an admin approves the text they read, not a later one.
  version    INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

INSERT INTO reviews_new (id, user_id, name, img, review, location, status, created_at, updated_at)
SELECT r.id, r.user_id, r.name, r.img, r.review, r.location,
       CASE WHEN r.user_id IS NULL THEN 'approved' ELSE 'pending' END, r.created_at, r.created_at
  FROM reviews r
 WHERE r.user_id IS NULL
    OR r.id = (SELECT newest.id FROM reviews newest WHERE newest.user_id = r.user_id
                ORDER BY newest.created_at DESC, newest.id DESC LIMIT 1);

DROP TABLE reviews;
ALTER TABLE reviews_new RENAME TO reviews;

-- One review per patient, whatever the timing of the requests.
CREATE UNIQUE INDEX reviews_one_per_patient ON reviews (user_id) WHERE user_id IS NOT NULL;
-- The home page's testimonials: the approved ones, newest first.
CREATE INDEX reviews_published ON reviews (status, created_at DESC);
