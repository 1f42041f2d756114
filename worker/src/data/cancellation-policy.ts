/** The clinic's cancellation policy (one row of cancellation_policy; 24 hours unless the clinic changed it). */
export function freeCancellationHours(db: D1Database): D1PreparedStatement {
  return db.prepare('SELECT free_cancellation_hours AS hours FROM cancellation_policy WHERE id = 1');
}

/** Reads the policy's hours (the migration inserts the row; 24 if it were ever missing). */
export async function readFreeCancellationHours(db: D1Database): Promise<number> {
  return (await freeCancellationHours(db).first<number>('hours')) ?? 24;
}

export function setFreeCancellationHours(db: D1Database, hours: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO cancellation_policy (id, free_cancellation_hours) VALUES (1, ?1)
       ON CONFLICT (id) DO UPDATE SET free_cancellation_hours = excluded.free_cancellation_hours,
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(hours);
}
