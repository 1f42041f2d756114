import { env } from 'cloudflare:test';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { describe, expect, it } from 'vitest';
import { clinicInstant, displayDate } from '../../src/platform/clinic-time.ts';

/** Every day of 2026 and 2027 as "yyyy-MM-dd". */
const DAYS = Array.from({ length: 730 }, (_, i) =>
  new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
);

describe('the clinic clock', () => {
  // New York and Madrid (an hour at 2 am and at 2-3 am), Lord Howe (half an hour), Santiago (at midnight),
  // Kolkata (never): the instant of a wall-clock time, from the day's midnight on a day that runs straight
  // and from the calendar on the others, is the calendar's instant.
  it.each(['America/New_York', 'Europe/Madrid', 'Australia/Lord_Howe', 'America/Santiago', 'Asia/Kolkata'])(
    'names the same instant as the calendar for every day of two years in %s',
    (zone) => {
      const clinic = { ...env, CLINIC_TIME_ZONE: zone };
      const wrong: string[] = [];
      for (const day of DAYS) {
        const [year, month, date] = day.split('-').map(Number) as [number, number, number];
        for (const minute of [0, 1, 59, 60, 119, 120, 150, 179, 180, 719, 1439]) {
          const expected = new TZDate(year, month - 1, date, Math.floor(minute / 60), minute % 60, zone).getTime();
          if (clinicInstant(clinic, day, minute).getTime() !== expected) wrong.push(`${day} ${minute}`);
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it('writes every day as date-fns writes PP in English', () => {
    const differ = DAYS.filter((day) => displayDate(day) !== format(new Date(`${day}T12:00:00`), 'PP'));
    expect(differ).toEqual([]);
    expect(displayDate('2026-12-03')).toBe('Dec 3, 2026');
  });
});
