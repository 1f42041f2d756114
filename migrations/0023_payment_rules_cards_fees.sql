-- Issue 45: money as the best practices run it.
--
-- 1. A payment rule per treatment: 'full' (pay the whole price online within the hold, as before),
--    'deposit' (pay `deposit_percent` of it online within the hold, the rest at the desk), 'card'
--    (a saved card keeps the visit, no hold; fees are charged to it under the policy accepted at
--    booking), 'clinic' (kept with no payment online). Existing treatments keep today's rule.
ALTER TABLE treatments ADD COLUMN payment TEXT NOT NULL DEFAULT 'full'
  CHECK (payment IN ('full', 'deposit', 'card', 'clinic'));
ALTER TABLE treatments ADD COLUMN deposit_percent INTEGER
  CHECK (deposit_percent IS NULL OR deposit_percent BETWEEN 1 AND 99);

-- A booking keeps the rule it was made under and what it owes online: `deposit_cents` is the share
-- paid online for a deposit (NULL: the whole price, or nothing online); the fees the patient
-- accepted at booking (0: none) are kept with it, so a later change of policy never charges more.
ALTER TABLE bookings ADD COLUMN payment_rule TEXT NOT NULL DEFAULT 'full'
  CHECK (payment_rule IN ('full', 'deposit', 'card', 'clinic'));
ALTER TABLE bookings ADD COLUMN deposit_cents INTEGER CHECK (deposit_cents IS NULL OR deposit_cents > 0);
ALTER TABLE bookings ADD COLUMN no_show_fee_cents INTEGER NOT NULL DEFAULT 0 CHECK (no_show_fee_cents >= 0);
ALTER TABLE bookings ADD COLUMN late_cancel_fee_cents INTEGER NOT NULL DEFAULT 0 CHECK (late_cancel_fee_cents >= 0);
-- A booking of a priced treatment with no online deadline was booked to be paid at the clinic.
UPDATE bookings SET payment_rule = 'clinic' WHERE price_cents > 0 AND paid = 0 AND hold_until IS NULL;

-- 2. The clinic's fees, in cents (0: none), on the one policy row.
ALTER TABLE cancellation_policy ADD COLUMN no_show_fee_cents INTEGER NOT NULL DEFAULT 0
  CHECK (no_show_fee_cents BETWEEN 0 AND 100000);
ALTER TABLE cancellation_policy ADD COLUMN late_cancel_fee_cents INTEGER NOT NULL DEFAULT 0
  CHECK (late_cancel_fee_cents BETWEEN 0 AND 100000);

-- 3. Cards on file. A setup is one provider SetupIntent handed to an account; confirmed, it saves
-- one card (its payment method at the provider, never the number). `customer_id` is the account's
-- customer at the provider, which off-session charges need.
CREATE TABLE payment_customers (
  user_id     TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  provider    TEXT NOT NULL CHECK (provider IN ('stripe', 'demo')),
  customer_id TEXT NOT NULL UNIQUE
);
CREATE TABLE card_setups (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider   TEXT NOT NULL CHECK (provider IN ('stripe', 'demo')),
  created_at TEXT NOT NULL
);
CREATE TABLE saved_cards (
  id                TEXT PRIMARY KEY,
  user_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider          TEXT NOT NULL CHECK (provider IN ('stripe', 'demo')),
  payment_method_id TEXT NOT NULL UNIQUE,
  -- The setup that saved it: confirming a setup twice saves one card.
  setup_id          TEXT UNIQUE,
  brand             TEXT NOT NULL CHECK (length(brand) <= 30),
  last4             TEXT NOT NULL CHECK (last4 GLOB '[0-9][0-9][0-9][0-9]'),
  exp_month         INTEGER NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
  exp_year          INTEGER NOT NULL CHECK (exp_year BETWEEN 2000 AND 2100),
  created_at        TEXT NOT NULL
);
CREATE INDEX saved_cards_of_user ON saved_cards (user_id, created_at);

-- 4. Fees: one per booking and kind, ever (the unique key is what makes twenty simultaneous
-- no-show marks charge once). status: 'charging' (asked of the provider), 'charged', 'unpaid'
-- (declined or needs the patient: a pay link went out), 'paid' (through that link), 'waived'
-- (by the desk; `refund_id` when it had been charged and was given back).
CREATE TABLE fees (
  id             TEXT PRIMARY KEY,
  booking_id     TEXT NOT NULL REFERENCES bookings (id),
  kind           TEXT NOT NULL CHECK (kind IN ('no_show', 'late_cancel')),
  account_id     TEXT NOT NULL,
  amount_cents   INTEGER NOT NULL CHECK (amount_cents > 0),
  status         TEXT NOT NULL CHECK (status IN ('charging', 'charged', 'unpaid', 'paid', 'waived')),
  -- Who took the money ('charged' or 'paid'): the provider it is refunded through when waived.
  provider       TEXT CHECK (provider IN ('stripe', 'demo')),
  transaction_id TEXT UNIQUE,
  card_brand     TEXT,
  card_last4     TEXT,
  failure        TEXT,
  refund_id      TEXT,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  UNIQUE (booking_id, kind)
);
CREATE INDEX fees_of_account ON fees (account_id, created_at);
