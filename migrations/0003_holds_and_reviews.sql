-- Unpaid bookings are held for a while, then released.

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
