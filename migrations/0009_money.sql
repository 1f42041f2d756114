-- Money (issue 17): the clinic's cancellation policy, refunds made through the payment provider,
-- and what a receipt shows (the card's brand and last four digits).

-- A patient may cancel a paid booking online, refunded in full, until this many hours before it
-- starts; inside that window only the clinic cancels it. One row: a clinic setting kept in a table.
CREATE TABLE cancellation_policy (
  id                      INTEGER PRIMARY KEY CHECK (id = 1),
  free_cancellation_hours INTEGER NOT NULL CHECK (free_cancellation_hours BETWEEN 0 AND 720),
  updated_at              TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO cancellation_policy (id, free_cancellation_hours) VALUES (1, 24);

-- Refunds through the provider. payments.refund_status (0004) now means:
--   NULL         nothing to give back
--   'due'        owed back, to be refunded by hand from the provider's dashboard
--   'pending'    asked of the provider (refund_id stays NULL until the provider has answered;
--                the Cron Trigger asks again with the same idempotency key until it has)
--   'succeeded'  refunded
--   'failed'     the provider could not refund it (refund_failure says why, in plain words)
-- It only moves forward (NULL/'due' -> 'pending' -> 'succeeded' -> 'failed': a card refund can
-- fail after it succeeded), so duplicated or reordered webhooks cannot take it back.
-- refund_reason gains 'cancelled': the paid booking was cancelled and refunded.
ALTER TABLE payments ADD COLUMN refund_id TEXT;
ALTER TABLE payments ADD COLUMN refund_amount_cents INTEGER CHECK (refund_amount_cents >= 0);
ALTER TABLE payments ADD COLUMN refund_failure TEXT;
ALTER TABLE payments ADD COLUMN refund_updated_at TEXT;
CREATE UNIQUE INDEX payments_refund_id ON payments (refund_id) WHERE refund_id IS NOT NULL;

-- The card that paid, where the provider tells it (a receipt shows it).
ALTER TABLE payments ADD COLUMN card_brand TEXT CHECK (length(card_brand) <= 30);
ALTER TABLE payments ADD COLUMN card_last4 TEXT CHECK (card_last4 GLOB '[0-9][0-9][0-9][0-9]');
