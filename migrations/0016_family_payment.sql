-- One payment for a family visit (issue 27): a single card payment (one provider intent) covers
-- every member's booking, and each member keeps a receipt line of their own. The payment is stored
-- as one line per booking: `transaction_id` is the line's id ("<intent>:<booking id>", which is
-- also what the booking waits for in bookings.payment_intent_id, so the rules that pay, refuse or
-- refund a payment apply line by line), and `intent_id` names the provider's payment the line is
-- part of: a member's cancellation refunds that line's amount of it. NULL for a payment of one
-- booking, whose transaction_id is the provider's own id.
ALTER TABLE payments ADD COLUMN intent_id TEXT;
CREATE INDEX payments_of_intent ON payments (intent_id) WHERE intent_id IS NOT NULL;
