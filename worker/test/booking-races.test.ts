import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { slotLabel } from '../../contract/slot-label.ts';
import {
  accessTokenFor,
  addDoctorAs,
  bearer,
  bookAs,
  call,
  clinicDay,
  newPatient,
  optionsOn,
  postJson,
  seed,
  slotsOf,
} from './helpers.ts';

let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

interface Stored {
  id: string;
  treatment: string;
  doctor_id: string | null;
  chair_id: string | null;
  start_minute: number;
  duration_minutes: number;
}

/** The active bookings of a date, read back from D1, by start. */
async function storedOn(date: string): Promise<Stored[]> {
  const { results } = await env.DB.prepare(
    "SELECT id, treatment, doctor_id, chair_id, start_minute, duration_minutes FROM bookings WHERE appointment_date = ?1 AND status = 'active' ORDER BY start_minute, id",
  )
    .bind(date)
    .all<Stored>();
  return results;
}

/** Pairs of bookings on one resource whose times overlap (none, ever). */
function overlaps(bookings: Stored[], resourceOf: (b: Stored) => string | null): string[] {
  const found: string[] = [];
  for (const [i, a] of bookings.entries()) {
    for (const b of bookings.slice(i + 1)) {
      const same = resourceOf(a) !== null && resourceOf(a) === resourceOf(b);
      if (
        same &&
        a.start_minute < b.start_minute + b.duration_minutes &&
        b.start_minute < a.start_minute + a.duration_minutes
      ) {
        found.push(`${a.treatment}@${a.start_minute} and ${b.treatment}@${b.start_minute} on ${resourceOf(a)}`);
      }
    }
  }
  return found;
}

/** Cells claimed twice on one resource (the primary key forbids it), and bookings without every claim of their length. */
async function claimProblems(date: string): Promise<{ doubles: unknown[]; incomplete: unknown[] }> {
  const doubles = await env.DB.prepare(
    'SELECT resource, cell, count(*) AS n FROM claims WHERE day = ?1 GROUP BY resource, cell HAVING n > 1',
  )
    .bind(date)
    .all();
  const incomplete = await env.DB.prepare(
    `SELECT b.id FROM bookings b WHERE b.appointment_date = ?1 AND b.status = 'active' AND (
       (SELECT count(*) FROM claims c WHERE c.booking_id = b.id AND c.resource = 'doctor:' || b.doctor_id) != b.duration_minutes / 15
       OR (SELECT count(*) FROM claims c WHERE c.booking_id = b.id AND c.resource = 'chair:' || b.chair_id) != b.duration_minutes / 15)`,
  )
    .bind(date)
    .all();
  return { doubles: doubles.results, incomplete: incomplete.results };
}

async function addTreatment(name: string, durationMinutes: number, specialty: string): Promise<string> {
  const response = await postJson('/api/treatments', { name, price: 50, durationMinutes, specialty }, admin);
  expect(response.status).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

/** `count` patients book at once, patient i the treatment `pick(i)` at the start `start(i)` (minutes). */
async function race(
  date: string,
  count: number,
  pick: (i: number) => { name: string; minutes: number },
  start: (i: number) => number,
) {
  const patients = await Promise.all(Array.from({ length: count }, () => newPatient('racer')));
  const responses = await Promise.all(
    patients.map((p, i) => {
      const { name, minutes } = pick(i);
      return bookAs(p.auth, { treatment: name, appointmentDate: date, slot: slotLabel(start(i), minutes) });
    }),
  );
  const statuses = responses.map((r) => r.status);
  const taken = responses.find((r) => r.status === 409);
  if (taken)
    expect(await taken.json()).toEqual({
      acknowledged: false,
      message: 'This slot was just booked; please choose another one',
    });
  return statuses;
}

describe('POST /api/bookings under concurrency', () => {
  it('gives 50 patients booking different treatments of the one orthodontist at overlapping times never two on one cell', async () => {
    const lengths = [
      { name: 'Orthodontic Consultation', minutes: 60 },
      { name: 'Aligner Check', minutes: 30 },
      { name: 'Brace Fitting', minutes: 90 },
    ];
    await addTreatment('Aligner Check', 30, 'Orthodontics');
    await addTreatment('Brace Fitting', 90, 'Orthodontics');
    const date = clinicDay(20);
    const statuses = await race(
      date,
      50,
      (i) => lengths[i % 3]!,
      (i) => 9 * 60 + 30 * (i % 5),
    );
    expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
    const stored = await storedOn(date);
    expect(stored.length).toBe(statuses.filter((s) => s === 201).length);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((b) => b.doctor_id === 'dr-hiro-tanaka')).toBe(true);
    expect(overlaps(stored, (b) => b.doctor_id)).toEqual([]);
    expect(overlaps(stored, (b) => b.chair_id)).toEqual([]);
    expect(await claimProblems(date)).toEqual({ doubles: [], incomplete: [] });
    // What a client sees: no start left that overlaps what was booked.
    for (const { name, minutes } of lengths) {
      const slots = (await optionsOn(date)).find((o) => o.name === name)!.slots;
      for (const b of stored) {
        for (let start = b.start_minute - minutes + 30; start < b.start_minute + b.duration_minutes; start += 30) {
          expect(slots).not.toContain(slotLabel(start, minutes));
        }
      }
    }
  });

  it('spreads a day’s bookings over the doctors who can see them and over the chairs', async () => {
    await addDoctorAs(admin, {
      name: 'Dr. Second General',
      email: 'second.general@clinic.test',
      specialty: 'General Dentistry',
    });
    const date = clinicDay(21);
    for (const hour of [9, 10, 11, 12]) {
      const { auth } = await newPatient();
      expect(
        (await bookAs(auth, { treatment: 'Dental Check-up', appointmentDate: date, slot: slotLabel(hour * 60, 30) }))
          .status,
      ).toBe(201);
    }
    const stored = await storedOn(date);
    const countBy = (key: (b: Stored) => string | null) => {
      const counts = new Map<string | null, number>();
      for (const b of stored) counts.set(key(b), (counts.get(key(b)) ?? 0) + 1);
      return [...counts.values()];
    };
    expect(countBy((b) => b.doctor_id)).toEqual([2, 2]);
    expect(countBy((b) => b.chair_id)).toEqual([2, 2]);
    // Two general dentists and two chairs: two check-ups at one time, at once, both get in.
    const both = await race(
      clinicDay(22),
      2,
      () => ({ name: 'Dental Check-up', minutes: 30 }),
      () => 14 * 60,
    );
    expect(both).toEqual([201, 201]);
    const pair = await storedOn(clinicDay(22));
    expect(new Set(pair.map((b) => b.doctor_id)).size).toBe(2);
    expect(new Set(pair.map((b) => b.chair_id)).size).toBe(2);
  });

  it('answers 409 when no doctor-and-chair pair is left, and a cancellation frees the time', async () => {
    const date = clinicDay(23);
    const [a, b, c] = [await newPatient(), await newPatient(), await newPatient()];
    const whitening = await bookAs(a.auth, {
      treatment: 'Teeth Whitening',
      appointmentDate: date,
      slot: '09.00 AM - 10.00 AM',
    });
    expect(whitening.status).toBe(201);
    expect(
      (await bookAs(b.auth, { treatment: 'Root Canal Treatment', appointmentDate: date, slot: '09.00 AM - 10.30 AM' }))
        .status,
    ).toBe(201);
    // Both chairs are taken at 09.00, though two general dentists are free.
    expect(await slotsOf(date, 'dental-checkup')).not.toContain('09.00 AM - 09.30 AM');
    const refused = await bookAs(c.auth, {
      treatment: 'Dental Check-up',
      appointmentDate: date,
      slot: '09.00 AM - 09.30 AM',
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      acknowledged: false,
      message: 'This slot was just booked; please choose another one',
    });

    const { insertedId } = await whitening.json<{ insertedId: string }>();
    expect((await call(`/api/bookings/${insertedId}`, { method: 'DELETE', headers: a.auth })).status).toBe(200);
    expect(
      await env.DB.prepare('SELECT count(*) AS n FROM claims WHERE booking_id = ?1').bind(insertedId).first('n'),
    ).toBe(0);
    expect(await slotsOf(date, 'dental-checkup')).toContain('09.00 AM - 09.30 AM');
    expect(
      (await bookAs(c.auth, { treatment: 'Dental Check-up', appointmentDate: date, slot: '09.00 AM - 09.30 AM' }))
        .status,
    ).toBe(201);
  });

  it('gives 50 patients booking treatments of four doctors at overlapping times in the one chair never two on one cell', async () => {
    expect((await call('/api/chairs/chair-2?force=true', { method: 'DELETE', headers: admin })).status).toBe(200);
    const treatments = [
      { name: 'Teeth Cleaning', minutes: 30 },
      { name: 'Teeth Whitening', minutes: 60 },
      { name: 'Root Canal Treatment', minutes: 90 },
      { name: 'Orthodontic Consultation', minutes: 60 },
    ];
    const date = clinicDay(24);
    const statuses = await race(
      date,
      50,
      (i) => treatments[i % 4]!,
      (i) => 9 * 60 + 30 * (i % 5),
    );
    expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
    const stored = await storedOn(date);
    expect(stored.length).toBe(statuses.filter((s) => s === 201).length);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((b) => b.chair_id === 'chair-1')).toBe(true);
    expect(overlaps(stored, (b) => b.chair_id)).toEqual([]);
    expect(overlaps(stored, (b) => b.doctor_id)).toEqual([]);
    expect(await claimProblems(date)).toEqual({ doubles: [], incomplete: [] });
  });
});
