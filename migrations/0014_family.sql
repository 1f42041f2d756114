-- One login for the whole family (issue 27): a patient account holds dependants, people it cares
-- for who have no login of their own (a child, a partner, a parent). A dependant is a users row with
-- `guardian_id` (the account), a date of birth and a relationship; its bookings are its own (one per
-- treatment per day, its own patient claim), booked, paid and mailed by the guardian.

ALTER TABLE users ADD COLUMN guardian_id TEXT REFERENCES users (id) ON DELETE CASCADE;
ALTER TABLE users ADD COLUMN birth_date TEXT
  CHECK (birth_date IS NULL OR birth_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]');
ALTER TABLE users ADD COLUMN relationship TEXT
  CHECK (relationship IS NULL OR relationship IN ('child', 'partner', 'parent', 'other'));
CREATE INDEX users_by_guardian ON users (guardian_id) WHERE guardian_id IS NOT NULL;

-- A guardian is an account: never itself a dependant, and a dependant has no sign-in of its own.
CREATE TRIGGER dependant_of_an_account BEFORE INSERT ON users
WHEN NEW.guardian_id IS NOT NULL
  AND (NEW.firebase_uid IS NOT NULL OR EXISTS (SELECT 1 FROM users g WHERE g.id = NEW.guardian_id AND g.guardian_id IS NOT NULL))
BEGIN
  SELECT RAISE(ABORT, 'a dependant belongs to an account and has no sign-in of its own');
END;

-- The members of one family visit, booked in one batch.
ALTER TABLE bookings ADD COLUMN family_visit_id TEXT;
CREATE INDEX bookings_by_family_visit ON bookings (family_visit_id) WHERE family_visit_id IS NOT NULL;

-- The hold limit counts the whole account: the guardian's unpaid bookings and open offers and its
-- dependants'. Otherwise the placement check is 0012's.
DROP TRIGGER placement_checks_run;
CREATE TRIGGER placement_checks_run INSTEAD OF INSERT ON placement_checks
BEGIN
  SELECT RAISE(ABORT, 'placement:booking_changed')
   WHERE NEW.moving_id IS NOT NULL AND NOT EXISTS (
     SELECT 1 FROM bookings b WHERE b.id = NEW.moving_id AND b.status = 'active'
        AND (b.paid = 1 OR b.hold_until IS NULL OR b.hold_until > NEW.now)
        AND b.paid = NEW.moving_paid AND b.payment_intent_id IS NEW.moving_intent);
  SELECT RAISE(ABORT, 'placement:offer_closed')
   WHERE NEW.offer_id IS NOT NULL AND NOT EXISTS (
     SELECT 1 FROM waitlist_offers o WHERE o.id = NEW.offer_id AND o.status = 'open' AND o.expires_at > NEW.now);
  SELECT RAISE(ABORT, 'placement:started') WHERE NEW.starts_at <= NEW.now;
  SELECT RAISE(ABORT, 'placement:treatment_inactive')
   WHERE NOT EXISTS (SELECT 1 FROM treatments t WHERE t.id = NEW.treatment_id AND t.active = 1);
  SELECT RAISE(ABORT, 'placement:clinic_closed')
   WHERE NOT EXISTS (
       SELECT 1 FROM clinic_hours h
        WHERE h.weekday = CAST(strftime('%w', NEW.day) AS INTEGER)
          AND h.open_minute <= NEW.start_minute AND NEW.start_minute + NEW.duration_minutes <= h.close_minute)
      OR EXISTS (SELECT 1 FROM closures c WHERE c.doctor_id IS NULL AND NEW.day BETWEEN c.from_date AND c.to_date);
  SELECT RAISE(ABORT, 'placement:doctor_unavailable')
   WHERE NOT EXISTS (
       SELECT 1 FROM doctors d
         JOIN treatments t ON t.id = NEW.treatment_id
         JOIN doctor_hours h ON h.doctor_id = d.id AND h.weekday = CAST(strftime('%w', NEW.day) AS INTEGER)
        WHERE d.id = NEW.doctor_id AND d.specialty_id = t.specialty_id
          AND h.start_minute <= NEW.start_minute AND NEW.start_minute + NEW.duration_minutes <= h.end_minute)
      OR EXISTS (SELECT 1 FROM closures c WHERE c.doctor_id = NEW.doctor_id AND NEW.day BETWEEN c.from_date AND c.to_date);
  SELECT RAISE(ABORT, 'placement:chair_missing') WHERE NOT EXISTS (SELECT 1 FROM chairs WHERE id = NEW.chair_id);
  SELECT RAISE(ABORT, 'placement:patient_busy')
   WHERE EXISTS (
     SELECT 1 FROM claims c
      WHERE c.day = NEW.day AND c.resource = 'patient:' || NEW.patient_id
        AND c.cell BETWEEN NEW.start_minute / 15 AND (NEW.start_minute + NEW.duration_minutes - 1) / 15
        AND (NEW.moving_id IS NULL OR c.booking_id IS NOT NEW.moving_id)
        AND (NEW.offer_id IS NULL OR c.hold_id IS NOT NEW.offer_id)
        AND (c.expires_at IS NULL OR c.expires_at > NEW.now)
        AND (c.booking_id IS NULL OR EXISTS (
          SELECT 1 FROM bookings b WHERE b.id = c.booking_id
            AND (b.paid = 1 OR b.hold_until IS NULL OR b.hold_until > NEW.now))));
  SELECT RAISE(ABORT, 'placement:doctor_taken')
   WHERE EXISTS (
     SELECT 1 FROM claims c
      WHERE c.day = NEW.day AND c.resource = 'doctor:' || NEW.doctor_id
        AND c.cell BETWEEN NEW.start_minute / 15 AND (NEW.start_minute + NEW.duration_minutes - 1) / 15
        AND (NEW.moving_id IS NULL OR c.booking_id IS NOT NEW.moving_id)
        AND (NEW.offer_id IS NULL OR c.hold_id IS NOT NEW.offer_id));
  SELECT RAISE(ABORT, 'placement:chair_taken')
   WHERE EXISTS (
     SELECT 1 FROM claims c
      WHERE c.day = NEW.day AND c.resource = 'chair:' || NEW.chair_id
        AND c.cell BETWEEN NEW.start_minute / 15 AND (NEW.start_minute + NEW.duration_minutes - 1) / 15
        AND (NEW.moving_id IS NULL OR c.booking_id IS NOT NEW.moving_id)
        AND (NEW.offer_id IS NULL OR c.hold_id IS NOT NEW.offer_id));
  SELECT RAISE(ABORT, 'placement:hold_limit')
   WHERE NEW.max_unpaid IS NOT NULL AND NEW.price_cents > 0
     AND (SELECT count(*) FROM bookings b
           WHERE b.user_id IN (SELECT f.id FROM users f, users p WHERE p.id = NEW.patient_id
                                 AND (f.id = coalesce(p.guardian_id, p.id) OR f.guardian_id = coalesce(p.guardian_id, p.id)))
             AND b.status = 'active' AND b.paid = 0 AND b.hold_until > NEW.now
             AND b.id IS NOT NEW.moving_id)
       + (SELECT count(*) FROM waitlist_offers o JOIN waitlist w ON w.id = o.entry_id
           WHERE w.user_id IN (SELECT f.id FROM users f, users p WHERE p.id = NEW.patient_id
                                 AND (f.id = coalesce(p.guardian_id, p.id) OR f.guardian_id = coalesce(p.guardian_id, p.id)))
             AND o.status = 'open' AND o.expires_at > NEW.now
             AND o.id IS NOT NEW.offer_id) >= NEW.max_unpaid;
END;
