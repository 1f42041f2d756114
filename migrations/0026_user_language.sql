-- Issue 48: the language of each account's mails, texts and calendar files. Existing accounts keep
-- English, the only language there was; a new account takes its sign-in's Accept-Language, and the
-- patient (or the front desk for a phone patient) changes it. The values are checked by the API
-- (contract/languages.ts), not here, so that adding a language needs no table rebuild.
ALTER TABLE users ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
