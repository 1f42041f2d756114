-- Forms before the visit (issue 28): medical history, consent and intake forms.
--
-- A form is a template whose questions live in versions (form_versions.questionnaire: a FHIR R4
-- Questionnaire, JSON). Changing a form writes a new version; answers keep the version they were
-- given on. A form either renews (renew_months: a medical history, filled again a year later) or
-- is given for one visit (renew_months NULL: a consent for that booking). It is needed by every
-- treatment (all_treatments) or by the treatments named in treatment_forms.
CREATE TABLE forms (
  id              TEXT PRIMARY KEY,
  title           TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 100),
  current_version INTEGER NOT NULL DEFAULT 1 CHECK (current_version >= 1),
  renew_months    INTEGER CHECK (renew_months IS NULL OR renew_months BETWEEN 1 AND 120),
  all_treatments  INTEGER NOT NULL DEFAULT 0 CHECK (all_treatments IN (0, 1)),
  active          INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE form_versions (
  form_id       TEXT NOT NULL REFERENCES forms (id),
  version       INTEGER NOT NULL CHECK (version >= 1),
  questionnaire TEXT NOT NULL CHECK (json_valid(questionnaire)),
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (form_id, version)
);

CREATE TABLE treatment_forms (
  treatment_id TEXT NOT NULL REFERENCES treatments (id) ON DELETE CASCADE,
  form_id      TEXT NOT NULL REFERENCES forms (id),
  PRIMARY KEY (treatment_id, form_id)
);

-- The answers: a FHIR R4 QuestionnaireResponse (JSON) on the version it was given on, for a
-- patient and, given for a visit, its booking. Never edited in place: a correction is a new
-- response. `alerts` (JSON array) are the answers the dentist must see ("Penicillin allergy");
-- `signed_name` and `created_at` are a consent's typed signature and its time. `request_key`
-- (the Idempotency-Key of a form sent from a phone's outbox) makes a repeated send store nothing.
CREATE TABLE form_responses (
  id          TEXT PRIMARY KEY,
  form_id     TEXT NOT NULL,
  version     INTEGER NOT NULL,
  patient_id  TEXT NOT NULL REFERENCES users (id),
  booking_id  TEXT REFERENCES bookings (id) ON DELETE SET NULL,
  response    TEXT NOT NULL CHECK (json_valid(response)),
  alerts      TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(alerts) AND json_type(alerts) = 'array'),
  signed_name TEXT,
  created_by  TEXT,
  request_key TEXT UNIQUE,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  FOREIGN KEY (form_id, version) REFERENCES form_versions (form_id, version)
);
CREATE INDEX form_responses_by_patient ON form_responses (patient_id, form_id, created_at);
CREATE INDEX form_responses_by_booking ON form_responses (booking_id, form_id) WHERE booking_id IS NOT NULL;

CREATE TRIGGER form_responses_never_edited BEFORE UPDATE OF form_id, version, patient_id, response, alerts, signed_name,
  created_at ON form_responses
BEGIN
  SELECT RAISE(ABORT, 'form responses are never edited: a correction is a new response');
END;

CREATE TRIGGER form_versions_never_edited BEFORE UPDATE ON form_versions
BEGIN
  SELECT RAISE(ABORT, 'a form version is never edited: a change is a new version');
END;

-- Each booking's forms and where each stands: 'filled', 'expired' (a renewing form answered longer
-- ago than it lasts, on the visit's date) or 'missing'. `response_id` is the answers that count.
CREATE VIEW booking_forms AS
SELECT b.id AS booking_id, f.id AS form_id, f.title, f.current_version, f.renew_months, r.id AS response_id,
  CASE
    WHEN r.id IS NULL THEN 'missing'
    WHEN f.renew_months IS NOT NULL AND date(r.created_at, '+' || f.renew_months || ' months') < b.appointment_date
      THEN 'expired'
    ELSE 'filled'
  END AS status
FROM bookings b
  JOIN forms f ON f.active = 1 AND (f.all_treatments = 1 OR EXISTS (
    SELECT 1 FROM treatment_forms tf WHERE tf.form_id = f.id AND tf.treatment_id = b.treatment_id))
  LEFT JOIN form_responses r ON r.id = (
    SELECT r2.id FROM form_responses r2
     WHERE r2.form_id = f.id AND r2.patient_id = b.user_id AND (f.renew_months IS NOT NULL OR r2.booking_id = b.id)
     ORDER BY r2.created_at DESC, r2.id DESC LIMIT 1);
