-- The audit trail (issue 15): one row per admin action and per payment state change, written in
-- the same D1 batch as the change it records (worker/src/data/audit.ts), so a change that fails
-- leaves no row. Append-only: triggers abort any UPDATE or DELETE, and an INSERT that would
-- replace a row. No foreign keys: a row outlives the user, doctor or booking it names, which is
-- why it keeps snapshots of their email and name.
--
--   at           when, UTC (ISO 8601 with milliseconds)
--   actor_id     the user who acted (a soft id), NULL for the system
--   actor_email  that user's email at the time, NULL for the system
--   actor_label  the user's role at the time ('admin' | 'patient'), or which part of the system
--                acted: 'stripe' (a webhook) or 'system' (the cron, the Worker on its own)
--   action       what happened, from the fixed list below
--   target_type, target_id, target_name
--                what it happened to: its kind, its id (no foreign key) and its name at the time
--   before, after
--                JSON objects of only the fields that changed (NULL: nothing before, as for an
--                addition, or nothing after, as for a deletion)
--
-- Which actions and target types exist is the contract's list (contract/audit.ts, the `type`
-- filter of GET /api/audit); the table checks only their shape ('user.made_admin', 'doctor'),
-- so that new work adds an action to that list, not a migration that rebuilds this table.
CREATE TABLE audit_log (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                CHECK (at = strftime('%Y-%m-%dT%H:%M:%fZ', at)),
  actor_id    TEXT,
  actor_email TEXT COLLATE NOCASE,
  actor_label TEXT NOT NULL,
  action      TEXT NOT NULL CHECK (length(action) <= 64 AND action GLOB '[a-z]*.[a-z]*'
                AND NOT action GLOB '*[^a-z_.]*'),
  target_type TEXT NOT NULL CHECK (length(target_type) <= 32 AND target_type GLOB '[a-z]*'
                AND NOT target_type GLOB '*[^a-z_]*'),
  target_id   TEXT NOT NULL CHECK (length(target_id) BETWEEN 1 AND 255),
  target_name TEXT,
  before      TEXT CHECK (CASE WHEN before IS NULL THEN 1 WHEN json_valid(before) THEN json_type(before) = 'object' ELSE 0 END),
  after       TEXT CHECK (CASE WHEN after IS NULL THEN 1 WHEN json_valid(after) THEN json_type(after) = 'object' ELSE 0 END),
  -- A user acts with their id, email and role; the system with a label and neither id nor email.
  CHECK (CASE WHEN actor_id IS NULL
              THEN actor_email IS NULL AND actor_label IN ('stripe', 'system')
              ELSE actor_email IS NOT NULL AND actor_label IN ('admin', 'patient') END)
);

-- Newest first (GET /api/audit pages by (at, id), never by OFFSET), and the same per action and per actor.
CREATE INDEX audit_log_newest ON audit_log (at, id);
CREATE INDEX audit_log_by_action ON audit_log (action, at, id);
CREATE INDEX audit_log_by_actor_id ON audit_log (actor_id, at, id);
CREATE INDEX audit_log_by_actor_email ON audit_log (actor_email, at, id);

-- Append-only. REPLACE deletes without firing delete triggers (recursive_triggers is off), so an
-- INSERT onto an existing id is refused too.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: its rows cannot be changed');
END;

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: its rows cannot be deleted');
END;

CREATE TRIGGER audit_log_no_replace BEFORE INSERT ON audit_log
WHEN EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id)
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: its rows cannot be replaced');
END;
