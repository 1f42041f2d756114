-- The front desk (issue 15): rescheduling, attendance, cancelling for a patient with a reason,
-- and the patient's reschedule cutoff. Plain ADD COLUMNs: every existing booking keeps its row
-- (both new columns are NULL on them), and the status list already has 'attended', 'no_show' and
-- 'moved' (migration 0005).

-- A rescheduled booking is kept with status 'moved' and points to the booking that replaced it.
ALTER TABLE bookings ADD COLUMN moved_to TEXT REFERENCES bookings (id) ON DELETE SET NULL;
-- What the clinic told the patient when it cancelled for them (cancel_reason 'admin'); shown in My Appointments.
ALTER TABLE bookings ADD COLUMN cancel_note TEXT CHECK (cancel_note IS NULL OR length(cancel_note) BETWEEN 1 AND 300);

-- A day's schedule and the CSV export read every booking of a date, whatever its status (the
-- partial bookings_by_date index covers active ones only).
CREATE INDEX bookings_by_day ON bookings (appointment_date, start_minute);
-- A patient's no-shows, counted on the schedule.
CREATE INDEX bookings_no_shows ON bookings (user_id) WHERE status = 'no_show';

-- The clinic's rules for changing a booking online live in one row, money's cancellation_policy
-- (0009): beside free_cancellation_hours, a patient may reschedule online until this many hours
-- before the appointment starts (an admin may at any time).
ALTER TABLE cancellation_policy ADD COLUMN reschedule_cutoff_hours INTEGER NOT NULL DEFAULT 24
  CHECK (reschedule_cutoff_hours BETWEEN 0 AND 720);
