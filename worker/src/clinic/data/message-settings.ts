/** The clinic's settings for messages (one row, table message_settings). */
export interface MessageSettingsRow {
  clinic_name: string;
  clinic_address: string;
  clinic_phone: string;
  second_reminder: number;
  offer_hold_minutes: number;
  /** JSON array of days from the due date. */
  recall_steps: string;
  doctor_feed_names: number;
  pay_soon_hours: number;
}

const COLUMNS =
  'clinic_name, clinic_address, clinic_phone, second_reminder, offer_hold_minutes, recall_steps, doctor_feed_names, pay_soon_hours';

export async function messageSettings(db: D1Database): Promise<MessageSettingsRow> {
  const row = await db.prepare(`SELECT ${COLUMNS} FROM message_settings WHERE id = 1`).first<MessageSettingsRow>();
  if (!row) throw new Error('message_settings has no row (migration 0008)');
  return row;
}

/** Changes the fields given (null: unchanged). RETURNING the row. */
export function updateMessageSettings(
  db: D1Database,
  changes: {
    clinicName?: string | undefined;
    clinicAddress?: string | undefined;
    clinicPhone?: string | undefined;
    secondReminder?: boolean | undefined;
    offerHoldMinutes?: number | undefined;
    recallSteps?: number[] | undefined;
    doctorFeedNames?: boolean | undefined;
    paySoonHours?: number | undefined;
  },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE message_settings SET clinic_name = coalesce(?1, clinic_name), clinic_address = coalesce(?2, clinic_address),
         clinic_phone = coalesce(?3, clinic_phone), second_reminder = coalesce(?4, second_reminder),
         offer_hold_minutes = coalesce(?5, offer_hold_minutes), recall_steps = coalesce(?6, recall_steps),
         doctor_feed_names = coalesce(?7, doctor_feed_names), pay_soon_hours = coalesce(?8, pay_soon_hours)
       WHERE id = 1 RETURNING ${COLUMNS}`,
    )
    .bind(
      changes.clinicName ?? null,
      changes.clinicAddress ?? null,
      changes.clinicPhone ?? null,
      changes.secondReminder === undefined ? null : changes.secondReminder ? 1 : 0,
      changes.offerHoldMinutes ?? null,
      changes.recallSteps === undefined ? null : JSON.stringify(changes.recallSteps),
      changes.doctorFeedNames === undefined ? null : changes.doctorFeedNames ? 1 : 0,
      changes.paySoonHours ?? null,
    );
}
