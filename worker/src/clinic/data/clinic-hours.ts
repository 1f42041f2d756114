import type { OpeningHours } from '../../../../contract/clinic.ts';

/** "09:00" for 540 minutes after midnight ("24:00" for the end of the day). */
export const clockOf = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
/** 540 for "09:00". */
export const minuteOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

export interface HoursRow {
  weekday: number;
  open_minute: number;
  close_minute: number;
}

/** The opening hours of one weekday (HoursRow; no row: closed): the schedule's read. */
export function hoursOnWeekday(db: D1Database, weekday: number): D1PreparedStatement {
  return db.prepare('SELECT weekday, open_minute, close_minute FROM clinic_hours WHERE weekday = ?1').bind(weekday);
}

export const toOpeningHours = (row: HoursRow): OpeningHours => ({
  weekday: row.weekday,
  open: clockOf(row.open_minute),
  close: clockOf(row.close_minute),
});

/** The week's opening hours, Sunday first; a weekday without hours is closed. */
export function weekHours(db: D1Database): D1PreparedStatement {
  return db.prepare('SELECT weekday, open_minute, close_minute FROM clinic_hours ORDER BY weekday');
}

/** Replaces the week's hours: two statements for one batch. */
export function replaceWeekHours(
  db: D1Database,
  hours: readonly (readonly [number, number, number])[],
): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM clinic_hours'),
    db
      .prepare(
        `INSERT INTO clinic_hours (weekday, open_minute, close_minute)
         SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?1)`,
      )
      .bind(JSON.stringify(hours)),
  ];
}
