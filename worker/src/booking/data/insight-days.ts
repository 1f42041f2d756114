/**
 * Each settled past day's insight aggregates, kept (migration 0025) so that a range reads a row per
 * day instead of every booking of it. The domain events say when a kept day changes: every change
 * the engine makes to a booking, its payments or a waitlist offer appends one in the same batch, so
 * the days of the bookings and offers the events after `insight_watermark.seq` point at are the
 * ones to forget. A day is stored only from a computation that saw every event up to the mark.
 */

/** What one day keeps: the aggregates of data/insights.ts for that date, without the date. */
export interface KeptDay {
  /** visits, attended, no_shows, by_patient, by_clinic, unpaid, moved, outstanding_cents (null: no booking). */
  figures: number[] | null;
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

/** The mark, and the newest event: the events between them are the ones a read has to look at. */
export const watermark = (db: D1Database) =>
  db.prepare(
    'SELECT w.seq AS watermark, coalesce((SELECT max(seq) FROM events), 0) AS latest FROM insight_watermark w',
  );

/**
 * The dates the events after the mark changed: their bookings' days (a move's too: the booking it
 * came from points at the new one), a family visit's bookings, an offer's day, and the day each
 * happened (a booking made counts on the clinic's date it was made; that date is one of the UTC
 * date of the instant and the days either side of it, whatever the time zone: all three are
 * forgotten).
 */
export const changedDates = (db: D1Database) =>
  db.prepare(
    // CROSS JOIN keeps the events after the mark as the outer loop: SQLite would otherwise walk every
    // moved booking, or every booking of a family visit, to probe the events (50 ms with 100,000 bookings).
    `SELECT b.appointment_date AS date FROM events e CROSS JOIN bookings b ON b.id = e.booking_id WHERE ${AFTER_MARK}
     UNION SELECT b.appointment_date FROM events e CROSS JOIN bookings b ON b.moved_to = e.booking_id WHERE ${AFTER_MARK}
     UNION SELECT b.appointment_date FROM events e CROSS JOIN bookings b ON b.family_visit_id = e.family_visit_id
       WHERE ${AFTER_MARK}
     UNION SELECT o.day FROM events e CROSS JOIN waitlist_offers o ON o.id = e.offer_id WHERE ${AFTER_MARK}
     UNION SELECT date(e.at, s.shift) FROM events e CROSS JOIN
       (SELECT '-1 day' AS shift UNION ALL SELECT '+0 days' UNION ALL SELECT '+1 day') s WHERE ${AFTER_MARK}`,
  );

export interface KeptDayRow {
  date: string;
  time_zone: string;
  figures: string;
}

export const keptDays = (db: D1Database, from: string, to: string) =>
  db.prepare('SELECT date, time_zone, figures FROM insight_days WHERE date BETWEEN ?1 AND ?2').bind(from, to);

/** The newest event, read in the batch that computes days: what they reflect. */
export const latestEvent = (db: D1Database) => db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM events');

/**
 * After a read: forgets the `changed` dates, moves the mark to `seen` (the newest event the read
 * looked at), and keeps `days` computed as of event `computedSeq`, unless another read moved the
 * mark past that meanwhile (then a change after the computation may already have been forgotten).
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
    days: [string, KeptDay][];
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
              `INSERT INTO insight_days (date, time_zone, computed_seq, figures)
               SELECT d.value ->> '$[0]', ?2, ?3, d.value -> '$[1]' FROM json_each(?1) d
               WHERE ?3 >= (SELECT seq FROM insight_watermark)
               ON CONFLICT (date) DO UPDATE SET time_zone = excluded.time_zone,
                 computed_seq = excluded.computed_seq, figures = excluded.figures`,
            )
            .bind(JSON.stringify(days), timeZone, computedSeq),
        ]
      : []),
  ];
}
