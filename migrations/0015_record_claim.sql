-- Coming of age (issue 27): a dependant of 18 or more can be invited to claim their own record. The
-- invitation gives the record the address the guardian entered (it received nothing before); a
-- verified sign-up with that address binds the record (its firebase_uid, as for a phone patient's),
-- and this trigger then takes it out of the family: no guardian any more, and its upcoming bookings'
-- messages go to its own address.
CREATE TRIGGER record_claimed AFTER UPDATE OF firebase_uid ON users
WHEN OLD.firebase_uid IS NULL AND NEW.firebase_uid IS NOT NULL AND NEW.guardian_id IS NOT NULL
BEGIN
  UPDATE users SET guardian_id = NULL, relationship = NULL WHERE id = NEW.id;
  UPDATE bookings SET email = NEW.email WHERE user_id = NEW.id AND status = 'active';
END;
