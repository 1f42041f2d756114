-- Identity is the Firebase uid, not the email (issue 11).
--
-- firebase_uid: the Firebase account a user is bound to. Rows from before this migration have none;
-- the first sign-in with a verified email binds them. A token for another uid never gets a bound row.
-- email_verified: the ID token's email_verified claim, refreshed on every token exchange.
-- token_version: carried in the Worker's access tokens (claim `ver`); bumping it ends every access
-- token issued before (sign-out, role change).
-- Plain ADD COLUMNs keep every existing row; SQLite cannot add a UNIQUE column, so a unique index
-- does it (NULLs never collide, so unbound rows are fine).

ALTER TABLE users ADD COLUMN firebase_uid TEXT;
ALTER TABLE users ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0 CHECK (email_verified IN (0, 1));
ALTER TABLE users ADD COLUMN token_version INTEGER NOT NULL DEFAULT 0 CHECK (token_version >= 0);

CREATE UNIQUE INDEX users_one_per_firebase_uid ON users (firebase_uid);
