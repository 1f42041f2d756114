-- Issue 45: a "pay soon" mail some hours before an unpaid booking's hold ends, so no visit is
-- released without a word first. How many hours before is the clinic's message setting (0: none).
ALTER TABLE message_settings ADD COLUMN pay_soon_hours INTEGER NOT NULL DEFAULT 6
  CHECK (pay_soon_hours BETWEEN 0 AND 48);
