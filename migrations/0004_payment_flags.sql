-- Payments the clinic must give back, and doctors' photos under their own R2 prefix.

-- A provider-verified payment that cannot pay its booking (the booking was cancelled or released
-- meanwhile, is already paid, has another price, or waits for another payment intent) is still
-- recorded, with the money, and flagged for a refund:
--   refund_status NULL         nothing to give back
--                 'due'        the clinic owes it back (the admin's Refunds due screen)
--                 'pending' | 'succeeded' | 'failed'
--                              reserved for refunds made through the provider (a later change)
--   refund_reason              why, as a code: booking_not_active, already_paid, amount_differs,
--                              other_intent
ALTER TABLE payments ADD COLUMN refund_status TEXT
  CHECK (refund_status IN ('due', 'pending', 'succeeded', 'failed'));
ALTER TABLE payments ADD COLUMN refund_reason TEXT;
CREATE INDEX payments_refunds ON payments (refund_status, created_at) WHERE refund_status IS NOT NULL;

-- A booking is paid once; a payment kept only to be refunded does not count.
DROP INDEX payments_one_per_booking;
CREATE UNIQUE INDEX payments_one_per_booking ON payments (booking_id)
  WHERE booking_id IS NOT NULL AND refund_status IS NULL;

-- The seed doctors' photos move under doctors/ (the local stack puts any missing photo there).
UPDATE doctors SET image_key = 'doctors/' || image_key WHERE image_key GLOB 'seed-dr-*.png';
