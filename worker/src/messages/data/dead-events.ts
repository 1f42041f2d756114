/** The events the queue gave up on (migration 0021's dead_events), with what their booking or offer is. */
export interface DeadEventRow {
  seq: number;
  type: string;
  at: string;
  failed_at: string;
  attempts: number;
  treatment: string | null;
  patient_name: string | null;
  appointment_date: string | null;
  start_minute: number | null;
}

export const deadEvents = async (db: D1Database): Promise<DeadEventRow[]> =>
  (
    await db
      .prepare(
        `SELECT e.seq, e.type, e.at, x.failed_at, x.attempts,
           coalesce(b.treatment, t.name) AS treatment, coalesce(b.patient_name, u.name) AS patient_name,
           coalesce(b.appointment_date, o.day) AS appointment_date, coalesce(b.start_minute, o.start_minute) AS start_minute
         FROM dead_events x JOIN events e ON e.seq = x.seq
           LEFT JOIN bookings b ON b.id = e.booking_id
           LEFT JOIN waitlist_offers o ON o.id = e.offer_id
           LEFT JOIN treatments t ON t.id = o.treatment_id
           LEFT JOIN waitlist w ON w.id = o.entry_id LEFT JOIN users u ON u.id = w.user_id
         WHERE x.replayed_at IS NULL ORDER BY x.seq LIMIT 200`,
      )
      .all<DeadEventRow>()
  ).results;
