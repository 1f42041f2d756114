/** When booking `id` is now (its date and start on the clinic's clock), or null when there is no such booking. */
export const bookingTimeOf = (db: D1Database, id: string) =>
  db
    .prepare('SELECT appointment_date, start_minute FROM bookings WHERE id = ?1')
    .bind(id)
    .first<{ appointment_date: string; start_minute: number }>();
