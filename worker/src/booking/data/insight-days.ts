/**
 * Each settled day's insight aggregates, kept (migration 0025) so that a range reads a row per day
 * instead of every booking of it. A day's figures change by themselves only when an unpaid hold on
 * it runs out, and otherwise only through a change to its bookings, their payments or its waitlist
 * offers, each of which appends a domain event in the same batch. So a day is kept once no hold on
 * it is running (`settled_at`: when the last one ran out), and forgotten when the events after
 * `insight_watermark.seq` point at it. A day is stored only from a computation that saw every
 * event up to the mark.
 */

/** What one day keeps: the aggregates of data/insights.ts for that date, without the date. */
export interface KeptDay {
  /** visits, attended, no_shows, by_patient, by_clinic, unpaid, moved, outstanding_cents (null: no booking). */
  figures: [number, number, number, number, number, number, number, number] | null;
  /** [doctor id, chair id, minutes] of the visits that kept their time. */
  resources: [string | null, string | null, number][];
  /** [revenue cents, refunded cents]. */
  money: [number, number];
  made: number;
  /** [days booked ahead, visits]. */
  leads: [number, number][];
  /** [offers, accepted]. */
  offers: [number, number];
  /** [hour, the chairs' booked minutes in it]. */
  hours: [number, number][];
}

const AFTER_MARK = 'e.seq > (SELECT seq FROM insight_watermark)';

/**
 * SQL: the dates the events after the mark changed: their bookings' days (a move's too: the booking
 * it came from points at the new one), a family visit's bookings, an offer's day, and the day each
 * happened (a booking made counts on the clinic's date it was made; that date is one of the UTC
 * date of the instant and the days either side of it, whatever the time zone: all three are
 * forgotten). CROSS JOIN keeps the events after the mark as the outer loop: SQLite would otherwise
 * walk every moved booking, or every booking of a family visit, to probe the events (50 ms a read
 * with 100,000 bookings).
 */
const CHANGED = `SELECT b.appointment_date AS date FROM events e CROSS JOIN bookings b ON b.id = e.booking_id WHERE ${AFTER_MARK}
  UNION SELECT b.appointment_date FROM events e CROSS JOIN bookings b ON b.moved_to = e.booking_id WHERE ${AFTER_MARK}
  UNION SELECT b.appointment_date FROM events e CROSS JOIN bookings b ON b.family_visit_id = e.family_visit_id
    WHERE ${AFTER_MARK}
  UNION SELECT o.day FROM events e CROSS JOIN waitlist_offers o ON o.id = e.offer_id WHERE ${AFTER_MARK}
  UNION SELECT date(e.at, s.shift) FROM events e CROSS JOIN
    (SELECT '-1 day' AS shift UNION ALL SELECT '+0 days' UNION ALL SELECT '+1 day') s WHERE ${AFTER_MARK}`;

/** The mark, and the newest event: the events between them are the ones a read has to look at. */
export const watermark = (db: D1Database) =>
  db.prepare(
    'SELECT w.seq AS watermark, coalesce((SELECT max(seq) FROM events), 0) AS latest FROM insight_watermark w',
  );

/** Every date the events after the mark changed (forgotten by the read, in the range or not). */
export const changedDates = (db: D1Database) => db.prepare(CHANGED);

export interface KeptDayRow {
  date: string;
  time_zone: string;
  /** When the day's last hold ran out (null: it had none): the row answers only for a clock past it. */
  settled_at: string | null;
  figures: string;
}

export const keptDays = (db: D1Database, from: string, to: string) =>
  db
    .prepare('SELECT date, time_zone, settled_at, figures FROM insight_days WHERE date BETWEEN ?1 AND ?2')
    .bind(from, to);

/** The newest event, read in the batch that computes days: what they reflect. */
export const latestEvent = (db: D1Database) => db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM events');

/**
 * After a read: forgets the `changed` dates, moves the mark to `seen` (the newest event the read
 * looked at), and keeps `days` (with the end of their last hold) computed as of event `computedSeq`,
 * unless another read moved the mark past that meanwhile (then a change after the computation may
 * already have been forgotten).
 */
export function keepDays(
  db: D1Database,
  {
    changed,
    seen,
    days,
    computedSeq,
    timeZone,
  }: {
    changed: string[];
    seen: number;
    days: [string, KeptDay, string | null][];
    computedSeq: number;
    timeZone: string;
  },
): D1PreparedStatement[] {
  return [
    ...(changed.length > 0
      ? [
          db
            .prepare('DELETE FROM insight_days WHERE date IN (SELECT value FROM json_each(?1))')
            .bind(JSON.stringify(changed)),
        ]
      : []),
    db.prepare('UPDATE insight_watermark SET seq = max(seq, ?1)').bind(seen),
    ...(days.length > 0
      ? [
          db
            .prepare(
              `INSERT INTO insight_days (date, time_zone, computed_seq, settled_at, figures)
               SELECT d.value ->> '$[0]', ?2, ?3, d.value ->> '$[2]', d.value -> '$[1]' FROM json_each(?1) d
               WHERE ?3 >= (SELECT seq FROM insight_watermark)
               ON CONFLICT (date) DO UPDATE SET time_zone = excluded.time_zone,
                 computed_seq = excluded.computed_seq, settled_at = excluded.settled_at, figures = excluded.figures`,
            )
            .bind(JSON.stringify(days), timeZone, computedSeq),
        ]
      : []),
  ];
}
