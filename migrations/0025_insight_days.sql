-- Issue 47: each settled day's insight aggregates, kept so that four weeks of insights read a few
-- rows instead of every booking of the range. A day is kept once no unpaid hold on it is still
-- running (`settled_at`: when the last one ran out, or NULL), since its figures then change only
-- through the booking engine, whose every change appends a domain event: a read of the insights
-- looks at the events after `insight_watermark.seq`, forgets the days their bookings and offers
-- are on, and moves the mark on. A day is stored only from a computation that saw every event up
-- to the mark (`computed_seq`), so a change racing the read is never lost. Nothing is carried
-- over: the table starts empty and fills as the insights are read.
CREATE TABLE insight_days (
  date         TEXT PRIMARY KEY CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  time_zone    TEXT NOT NULL,
  computed_seq INTEGER NOT NULL,
  settled_at   TEXT,
  figures      TEXT NOT NULL CHECK (json_valid(figures))
) WITHOUT ROWID;

-- The events up to here are reflected in insight_days; it starts at the newest event, since no day
-- is kept yet.
CREATE TABLE insight_watermark (
  id  INTEGER PRIMARY KEY CHECK (id = 1),
  seq INTEGER NOT NULL
);
INSERT INTO insight_watermark (id, seq) SELECT 1, coalesce(max(seq), 0) FROM events;
