-- Issue 42: nothing leaks between paths.
--
-- 1. Erasure pseudonymises the audit trail. The trail stays append-only, with one exception the
--    erasure of a patient needs: a row may be pseudonymised once (redacted_at set from NULL), its
--    personal text (the actor's email, the target's name, personal fields of before/after, an SMS
--    target's phone number) replaced, while who acted, what was done, to what kind of thing and
--    when stay as they were. Any other change, a second redaction, and every DELETE or REPLACE are
--    still refused.
ALTER TABLE audit_log ADD COLUMN redacted_at TEXT;

DROP TRIGGER audit_log_no_update;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
WHEN NOT (
  OLD.redacted_at IS NULL AND NEW.redacted_at IS NOT NULL
  AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.action = OLD.action
  AND NEW.actor_id IS OLD.actor_id AND NEW.actor_label = OLD.actor_label
  AND NEW.target_type = OLD.target_type AND (NEW.target_id = OLD.target_id OR OLD.target_type = 'sms')
)
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: its rows cannot be changed, only pseudonymised once on erasure');
END;

-- 2. A booking waiting for the front desk's review is the desk's: it had kept its online deadline
--    to pay, and the unpaid sweep then cancelled a visit the patient had been told would be kept.
--    The mark now clears the deadline (booking/data/writes.ts markStranded); the bookings waiting
--    today lose theirs too.
UPDATE bookings SET hold_until = NULL
WHERE needs_review = 1 AND status = 'active' AND paid = 0 AND hold_until IS NOT NULL;

-- 3. The front desk's note carries a version of its own: a note written on version N (say, while
--    offline) is refused once another note was saved meanwhile, instead of overwriting it.
ALTER TABLE bookings ADD COLUMN desk_note_version INTEGER NOT NULL DEFAULT 0;
UPDATE bookings SET desk_note_version = 1 WHERE desk_note IS NOT NULL;
