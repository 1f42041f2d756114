-- Issue 45: the rest of a deposit, taken at the front desk, is a payment of its own. A booking
-- had one live payment at most; now one per purpose: 'visit' (the online payment, the deposit, or
-- the whole price at the desk) and 'balance' (the rest after a deposit). Existing payments are
-- the visit's.
ALTER TABLE payments ADD COLUMN purpose TEXT NOT NULL DEFAULT 'visit' CHECK (purpose IN ('visit', 'balance'));
DROP INDEX payments_one_per_booking;
CREATE UNIQUE INDEX payments_one_per_booking ON payments (booking_id, purpose)
  WHERE booking_id IS NOT NULL AND refund_status IS NULL;
