import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InsightsAnswer, InsightsDay } from '../../contract/insights.ts';
import { keepDays } from '../src/booking/data/insight-days.ts';
import { clinicInstant, isRegularDay, weekdayOf } from '../src/platform/clinic-time.ts';
import {
  accessTokenFor,
  bearer,
  bookAs,
  call,
  clinicDay,
  newPatient,
  payWithDemo,
  postJson,
  seed,
  slotsOf,
} from './helpers.ts';

/**
 * The owner's figures (issue 30) against a known pattern: a few visits booked, paid, refunded,
 * cancelled by each party, moved across a daylight-saving change, marked attended and missed, a
 * closed day and a doctor away; every number of the answer is checked against what was done.
 */

let admin: Record<string, string>;
const HORIZON = { BOOKING_HORIZON_DAYS: '400' };

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

const insights = async (from: string, to: string) => {
  const response = await call(`/api/insights?from=${from}&to=${to}`, { headers: admin });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<InsightsAnswer>();
};

/** The next clinic day whose clock changes (a daylight-saving day), at most a year ahead. */
function nextChangeDay(): { date: string; offset: number } {
  for (let n = 5; n < 366; n++) if (!isRegularDay(env, clinicDay(n))) return { date: clinicDay(n), offset: n };
  throw new Error('the clinic’s time zone has no daylight-saving change within a year');
}

async function book(treatmentId: string, name: string, date: string, slotIndex = 0) {
  const patient = await newPatient('insights');
  const slot = (await slotsOf(date, treatmentId, HORIZON))[slotIndex] ?? '';
  const response = await bookAs(patient.auth, { treatment: name, appointmentDate: date, slot }, HORIZON);
  expect(response.status, await response.clone().text()).toBe(201);
  return { patient, id: (await response.json<{ insertedId: string }>()).insertedId };
}

/** A past visit at `minute` with the general dentist in the first chair, made `madeDaysBefore` days before. */
async function pastVisit(date: string, minute: number, madeDaysBefore: number): Promise<string> {
  const patient = await newPatient('past');
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, doctor_id,
       chair_id, user_id, patient_name, email, price_cents, created_at)
     VALUES (?1, 'cavity-filling', 'Cavity Filling', ?2, 'past', ?3, 60, 'dr-sofia-alvarez',
       (SELECT id FROM chairs ORDER BY position, id LIMIT 1), ?4, 'Past Patient', ?5, 15000, ?6)`,
  )
    .bind(
      id,
      date,
      minute,
      patient.id,
      patient.email,
      clinicInstant(env, clinicDay(-2 - madeDaysBefore), 720).toISOString(),
    )
    .run();
  return id;
}

const dayOf = (answer: InsightsAnswer, date: string) => answer.days.find((d) => d.date === date) as InsightsDay;
const timeOf = (list: InsightsDay['doctors'], id: string) => list.find((r) => r._id === id);

describe('GET /api/insights: the figures of a known pattern', () => {
  it('counts every visit, cancellation, move, payment, refund, mark, closure and offer where it happened', async () => {
    const past = clinicDay(-2);
    const a = clinicDay(3);
    const closed = clinicDay(4);
    const change = nextChangeDay();
    const last = clinicDay(change.offset + 1);

    // Day a: a cleaning paid and kept; a filling paid, then cancelled and refunded by its patient;
    // a cleaning moved by the clinic to the daylight-saving day; a root canal cancelled by the clinic.
    const kept = await book('teeth-cleaning', 'Teeth Cleaning', a);
    await payWithDemo(kept.id, kept.patient.auth);
    const refunded = await book('cavity-filling', 'Cavity Filling', a, 2);
    await payWithDemo(refunded.id, refunded.patient.auth);
    const cancelled = await call(`/api/bookings/${refunded.id}`, { method: 'DELETE', headers: refunded.patient.auth });
    expect(await cancelled.json()).toMatchObject({ refund: { status: 'succeeded', amount: 150 } });
    const moving = await book('dental-checkup', 'Dental Check-up', a, 4);
    const moved = await call(
      `/api/bookings/${moving.id}/reschedule`,
      {
        method: 'POST',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ appointmentDate: change.date, slot: '09.00 AM - 09.30 AM' }),
      },
      HORIZON,
    );
    expect(moved.status, await moved.clone().text()).toBe(200);
    const byClinic = await book('root-canal', 'Root Canal Treatment', a, 6);
    const clinicCancel = await postJson(`/api/bookings/${byClinic.id}/cancel`, { reason: 'Doctor ill' }, admin);
    expect(clinicCancel.status).toBe(200);

    // The orthodontist is away on day a; the whole clinic is closed the day after.
    for (const closure of [
      { from: a, to: a, reason: 'Course', doctorId: 'dr-hiro-tanaka' },
      { from: closed, to: closed, reason: 'Training day' },
    ]) {
      expect((await postJson('/api/closures', closure, admin)).status).toBe(201);
    }

    // Two days ago: one patient came, one did not (both booked five days before, unpaid).
    const came = await pastVisit(past, 540, 5);
    const missed = await pastVisit(past, 600, 5);
    for (const [id, status] of [
      [came, 'attended'],
      [missed, 'no_show'],
    ]) {
      expect((await postJson(`/api/bookings/${id}/attendance`, { status }, admin)).status).toBe(200);
    }

    // On the daylight-saving day: two holds that ran out unpaid, made at 23:30 that day and at 00:30
    // the next (a 23- or 25-hour day on UTC's clock); two waitlist offers of day a, one taken; two
    // recalls due, one booked.
    const holder = await newPatient('holds');
    for (const [i, madeAt] of [clinicInstant(env, change.date, 23 * 60 + 30), clinicInstant(env, last, 30)].entries()) {
      await env.DB.prepare(
        `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes,
           user_id, patient_name, email, price_cents, status, cancel_reason, cancelled_at, created_at)
         VALUES (?1, 'teeth-cleaning', 'Teeth Cleaning', ?2, 'x', ?3, 30, ?4, 'Holder', ?5, 8000, 'cancelled',
           'unpaid', ?6, ?6)`,
      )
        .bind(crypto.randomUUID(), change.date, 600 + i * 30, holder.id, holder.email, madeAt.toISOString())
        .run();
    }
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO waitlist (id, user_id, treatment_id, from_date, to_date, created_at)
         VALUES ('w-insights', ?1, 'teeth-cleaning', ?2, ?2, '2026-01-01T00:00:00.000Z')`,
      ).bind(holder.id, a),
      ...['accepted', 'expired'].map((status, i) =>
        env.DB.prepare(
          `INSERT INTO waitlist_offers (id, entry_id, treatment_id, day, start_minute, duration_minutes, slot, doctor_id,
             chair_id, expires_at, status, created_at)
           VALUES (?1, 'w-insights', 'teeth-cleaning', ?2, 900, 30, 'x', 'dr-sofia-alvarez', 'c', ?3, ?4, ?3)`,
        ).bind(`offer-${i}`, a, new Date().toISOString(), status),
      ),
      ...[kept.id, null].map((bookingId) =>
        env.DB.prepare(
          `INSERT INTO recalls (id, patient_id, treatment_id, due_date, status, source, booking_id)
           VALUES (?1, ?2, 'teeth-cleaning', ?3, ?4, 'desk', ?5)`,
        ).bind(crypto.randomUUID(), holder.id, closed, bookingId ? 'booked' : 'closed', bookingId),
      ),
    ]);

    const answer = await insights(past, last);
    const dates = answer.days.map((d) => d.date);
    expect(dates[0]).toBe(past);
    expect(dates.at(-1)).toBe(last);
    expect(dates).toHaveLength(change.offset + 4);
    expect(answer.timeZone).toBe(env.CLINIC_TIME_ZONE);
    const chairIds = answer.totals.chairs.map((c) => c._id);
    expect(chairIds).toHaveLength(2);

    // Two days ago: the visit that came and the one missed, an hour each with the general dentist.
    expect(dayOf(answer, past)).toMatchObject({
      visits: 1,
      attended: 1,
      noShows: 1,
      cancelled: 0,
      moved: 0,
      bookedMinutes: 120,
      openMinutes: 960,
      revenue: 0,
      refunded: 0,
      outstanding: 150,
    });
    expect(timeOf(dayOf(answer, past).doctors, 'dr-sofia-alvarez')).toMatchObject({
      bookedMinutes: 120,
      openMinutes: 480,
    });
    expect(dayOf(answer, past).chairs.map((c) => c.bookedMinutes)).toEqual([120, 0]);

    // Day a: one visit kept; one cancelled by its patient (paid and refunded), one by the clinic; one moved.
    expect(dayOf(answer, a)).toMatchObject({
      visits: 1,
      attended: 0,
      noShows: 0,
      cancelled: 2,
      cancelledBy: { patient: 1, clinic: 1, unpaid: 0 },
      moved: 1,
      bookedMinutes: 30,
      openMinutes: 960,
      revenue: 230,
      refunded: 150,
      outstanding: 0,
      offers: 2,
      offersAccepted: 1,
    });
    expect(timeOf(dayOf(answer, a).doctors, 'dr-sofia-alvarez')).toMatchObject({ bookedMinutes: 30, openMinutes: 480 });
    expect(timeOf(dayOf(answer, a).doctors, 'dr-hiro-tanaka')).toMatchObject({ bookedMinutes: 0, openMinutes: 0 });

    // The closed day: no open minute for anyone.
    expect(dayOf(answer, closed).openMinutes).toBe(0);
    expect(dayOf(answer, closed).doctors.every((d) => d.openMinutes === 0)).toBe(true);

    // The daylight-saving day: the moved check-up (unpaid, so outstanding), two holds that ran out;
    // made that day, on the clinic's calendar: the hold made at 23:30, not the one at 00:30 the next day.
    expect(dayOf(answer, change.date)).toMatchObject({
      visits: 1,
      cancelled: 2,
      cancelledBy: { patient: 0, clinic: 0, unpaid: 2 },
      bookedMinutes: 30,
      openMinutes: 960,
      outstanding: 45,
      made: 1,
    });
    expect(dayOf(answer, last).made).toBe(1);

    // Made today: the four bookings of day a (the move is not a booking made).
    const today = clinicDay(0);
    expect(dayOf(answer, today).made).toBe(4);
    expect(answer.days.reduce((sum, d) => sum + d.made, 0)).toBe(6);

    // Totals: the sums of the days, and the rates.
    const openDays = dates.length - 1;
    expect(answer.totals).toMatchObject({
      visits: 3,
      attended: 1,
      noShows: 1,
      cancelled: 4,
      cancelledBy: { patient: 1, clinic: 1, unpaid: 2 },
      moved: 1,
      made: 6,
      bookedMinutes: 180,
      openMinutes: openDays * 960,
      revenue: 230,
      refunded: 150,
      outstanding: 195,
      offers: 2,
      offersAccepted: 1,
      noShowRate: 0.5,
      recalls: { due: 2, booked: 1, rate: 0.5 },
    });
    expect(timeOf(answer.totals.doctors, 'dr-hiro-tanaka')?.openMinutes).toBe((openDays - 1) * 480);
    expect(timeOf(answer.totals.doctors, 'dr-sofia-alvarez')).toMatchObject({
      bookedMinutes: 180,
      openMinutes: openDays * 480,
    });
    // Lead times of the visits that kept their time: 5 and 5 days (the past ones), 3 (day a), and
    // the move's (made today for the daylight-saving day): the median is the second, p90 the fourth.
    expect(answer.totals.leadTimeDays).toEqual({ median: 5, p90: change.offset });

    // The heat map: the chairs' minutes by weekday and hour, from the visits that kept their time.
    const expected = new Map<string, number>();
    for (const [date, start, minutes] of [
      [past, 540, 60],
      [past, 600, 60],
      [a, 540, 30],
      [change.date, 540, 30],
    ] as const) {
      for (let m = start; m < start + minutes; m++) {
        const key = `${weekdayOf(date)} ${Math.floor(m / 60)}`;
        expected.set(key, (expected.get(key) ?? 0) + 1);
      }
    }
    const booked = answer.hours.filter((h) => h.bookedMinutes > 0);
    expect(new Map(booked.map((h) => [`${h.weekday} ${h.hour}`, h.bookedMinutes]))).toEqual(expected);
    expect(answer.hours.every((h) => h.hour >= 9 && h.hour < 17)).toBe(true);
    expect(answer.hours.reduce((sum, h) => sum + h.openMinutes, 0)).toBe(answer.totals.openMinutes);
  });

  it('answers an empty range of no bookings with zeros, and refuses bad ranges with a 400', async () => {
    const far = clinicDay(300);
    const answer = await insights(far, far);
    expect(answer.days).toHaveLength(1);
    expect(answer.totals).toMatchObject({ visits: 0, made: 0, noShowRate: null, leadTimeDays: null });
    for (const query of [
      `from=${clinicDay(5)}&to=${clinicDay(4)}`,
      `from=${clinicDay(0)}&to=${clinicDay(366)}`,
      'from=2026-02-31&to=2026-03-01',
      'from=&to=',
    ]) {
      const response = await call(`/api/insights?${query}`, { headers: admin });
      expect(response.status, query).toBe(400);
    }
    const patient = await newPatient('nosy');
    expect((await call(`/api/insights?from=${far}&to=${far}`, { headers: patient.auth })).status).toBe(403);
  });
});

describe('GET /api/insights: settled days are kept until an event changes them', () => {
  const keptDates = async (from: string, to: string) =>
    (
      await env.DB.prepare('SELECT date FROM insight_days WHERE date BETWEEN ?1 AND ?2 ORDER BY date')
        .bind(from, to)
        .all<{ date: string }>()
    ).results.map((r) => r.date);

  it('reads a kept day instead of its bookings, forgets it on a mark, and answers as a fresh computation', async () => {
    const day = clinicDay(-9);
    const today = clinicDay(0);
    const came = await pastVisit(day, 540, 3);
    const missed = await pastVisit(day, 660, 3);
    const first = await insights(day, today);
    expect(dayOf(first, day)).toMatchObject({ visits: 2, attended: 0, noShows: 0, bookedMinutes: 120 });
    // Every day with no hold running is kept (today's too).
    const all = first.days.map((d) => d.date);
    expect(await keptDates(day, today)).toEqual(all);

    // Read from the kept row: a row altered behind the engine's back shows as it is.
    await env.DB.prepare("UPDATE insight_days SET figures = json_set(figures, '$.made', 42) WHERE date = ?1")
      .bind(day)
      .run();
    expect(dayOf(await insights(day, today), day).made).toBe(42);

    // Marks are domain events: the day is forgotten, computed again, and kept again.
    for (const [id, status] of [
      [came, 'attended'],
      [missed, 'no_show'],
    ]) {
      expect((await postJson(`/api/bookings/${id}/attendance`, { status }, admin)).status).toBe(200);
    }
    const second = await insights(day, today);
    expect(dayOf(second, day)).toMatchObject({ visits: 1, attended: 1, noShows: 1, made: 0, bookedMinutes: 120 });
    expect(await keptDates(day, today)).toEqual(all);
    await env.DB.prepare('DELETE FROM insight_days').run();
    expect(await insights(day, today)).toEqual(second);
  });

  it('keeps a day once no hold on it is running, and not for a clock set back before the hold ran out', async () => {
    const date = clinicDay(2);
    const { id } = await book('teeth-cleaning', 'Teeth Cleaning', date);
    expect(dayOf(await insights(date, date), date)).toMatchObject({ visits: 1, cancelledBy: { unpaid: 0 } });
    expect(await keptDates(date, date)).toEqual([]);

    const row = await env.DB.prepare('SELECT hold_until FROM bookings WHERE id = ?1')
      .bind(id)
      .first<{ hold_until: string }>();
    const afterHold = new Date(Date.parse(row?.hold_until ?? '') + 60_000).toISOString();
    const later = await call(
      `/api/insights?from=${date}&to=${date}`,
      { headers: { ...admin, 'X-Test-Clock': afterHold } },
      { ALLOW_TEST_CLOCK: 'true' },
    );
    expect(later.status).toBe(200);
    expect(dayOf(await later.json<InsightsAnswer>(), date)).toMatchObject({ visits: 0, cancelledBy: { unpaid: 1 } });
    expect(await keptDates(date, date)).toEqual([date]);

    // Now again, before the hold runs out: the kept day does not answer for it.
    expect(dayOf(await insights(date, date), date)).toMatchObject({ visits: 1, cancelledBy: { unpaid: 0 } });
  });

  it('computes a kept day again for a clinic in another time zone, and keeps it in that zone', async () => {
    const date = clinicDay(-12);
    await pastVisit(date, 600, 1);
    await insights(date, date);
    const keptZone = async () =>
      (
        await env.DB.prepare('SELECT time_zone FROM insight_days WHERE date = ?1')
          .bind(date)
          .first<{ time_zone: string }>()
      )?.time_zone;
    expect(await keptZone()).toBe(env.CLINIC_TIME_ZONE);
    const madrid = await call(
      `/api/insights?from=${date}&to=${date}`,
      { headers: admin },
      { CLINIC_TIME_ZONE: 'Europe/Madrid' },
    );
    expect(madrid.status).toBe(200);
    const answer = await madrid.json<InsightsAnswer>();
    expect(answer.timeZone).toBe('Europe/Madrid');
    expect(dayOf(answer, date)).toMatchObject({ visits: 1, bookedMinutes: 60 });
    expect(await keptZone()).toBe('Europe/Madrid');
  });

  it('keeps nothing computed before the mark another read moved on (a change may have been forgotten meanwhile)', async () => {
    const date = clinicDay(-20);
    await env.DB.prepare('UPDATE insight_watermark SET seq = seq + 100').run();
    const { seq } = (await env.DB.prepare('SELECT seq FROM insight_watermark').first<{ seq: number }>()) ?? { seq: 0 };
    const day = { figures: null, resources: [], money: [0, 0], made: 7, leads: [], offers: [0, 0], hours: [] } as const;
    const keep = (computedSeq: number) =>
      env.DB.batch(
        keepDays(env.DB, {
          changed: [],
          seen: 0,
          days: [[date, structuredClone(day) as never, null]],
          computedSeq,
          timeZone: env.CLINIC_TIME_ZONE,
        }),
      );
    await keep(seq - 1);
    expect(await keptDates(date, date)).toEqual([]);
    await keep(seq);
    expect(await keptDates(date, date)).toEqual([date]);
    // The mark never goes back.
    expect((await env.DB.prepare('SELECT seq FROM insight_watermark').first<{ seq: number }>())?.seq).toBe(seq);
  });
});
