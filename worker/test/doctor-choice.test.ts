import { beforeAll, describe, expect, it } from 'vitest';
import {
  accessTokenFor,
  addSecondGeneralDentist,
  bearer,
  call,
  clinicDay,
  count,
  newPatient,
  postJson,
  seed,
} from './helpers.ts';

// The doctor of the patient's choice (issue 46): the free times answer per doctor when asked, a
// booking goes to the doctor asked for or says why not, and "any" keeps the engine's allocation.

let admin: Record<string, string>;
const CLEANING = 'teeth-cleaning'; // 30 minutes, General Dentistry (Dr. Sofia Alvarez)
const DAY = clinicDay(9);

type Option = { _id: string; name: string; slots: string[]; closed: { reason: string } | null };

async function options(query: string): Promise<Option[]> {
  const response = await call(`/api/appointmentOptions?date=${DAY}${query}`);
  expect(response.status).toBe(200);
  return response.json();
}

const slotsOf = async (query: string) => (await options(query)).find((o) => o._id === CLEANING)?.slots ?? [];

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
  await addSecondGeneralDentist();
});

const book = (auth: Record<string, string>, body: Record<string, unknown>) =>
  postJson('/api/bookings', { treatment: 'Teeth Cleaning', appointmentDate: DAY, phone: '555 0100', ...body }, auth);

describe('choosing the doctor', () => {
  it("lists only the doctor's treatments and times, and books the doctor asked for", async () => {
    const any = await options('');
    const second = await options('&doctorId=dr-second');
    // Dr. Second is a general dentist: no root canal, no braces.
    expect(second.map((o) => o.name)).not.toContain('Root Canal Treatment');
    expect(second.map((o) => o._id)).toContain(CLEANING);
    expect(any.map((o) => o.name)).toContain('Root Canal Treatment');
    const [slot] = await slotsOf('&doctorId=dr-second');
    expect(slot).toBeDefined();

    const patient = await newPatient('choice');
    const booked = await book(patient.auth, { slot, doctorId: 'dr-second' });
    expect(booked.status).toBe(201);
    const [mine] = await (await call('/api/bookings', { headers: patient.auth })).json<{ doctor: { _id: string } }[]>();
    expect(mine?.doctor?._id).toBe('dr-second');

    // Dr. Second is taken then; Dr. Sofia Alvarez is not, so "any" still offers the time.
    expect(await slotsOf('&doctorId=dr-second')).not.toContain(slot);
    expect(await slotsOf('')).toContain(slot);

    const other = await newPatient('choice-other');
    const taken = await book(other.auth, { slot, doctorId: 'dr-second' });
    expect(taken.status).toBe(409);
    expect((await taken.json<{ message: string }>()).message).toBe(
      'Dr. Second is not free at this time; choose another time or any doctor',
    );
    // Any doctor: the engine places it with the one who is free.
    const anyDoctor = await book(other.auth, { slot });
    expect(anyDoctor.status).toBe(201);
    const [theirs] = await (await call('/api/bookings', { headers: other.auth })).json<{ doctor: { _id: string } }[]>();
    expect(theirs?.doctor?._id).toBe('dr-sofia-alvarez');
  });

  it('refuses a doctor who does not exist or does not perform the treatment, changing nothing', async () => {
    const patient = await newPatient('choice-wrong');
    const [slot] = await slotsOf('');
    const before = await count('bookings');
    const unknown = await book(patient.auth, { slot, doctorId: 'dr-nobody' });
    expect(unknown.status).toBe(404);
    expect((await unknown.json<{ message: string }>()).message).toBe('No such doctor');
    const wrong = await book(patient.auth, { slot, doctorId: 'dr-hiro-tanaka' });
    expect(wrong.status).toBe(400);
    expect((await wrong.json<{ message: string }>()).message).toBe(
      'Dr. Hiro Tanaka does not perform Teeth Cleaning; choose another doctor or any doctor',
    );
    expect((await book(patient.auth, { slot, doctorId: 42 })).status).toBe(400);
    expect(await count('bookings')).toBe(before);
    expect((await call(`/api/appointmentOptions?date=${DAY}&doctorId=dr-nobody`)).status).toBe(404);
  });

  it("says the doctor is away on their closure while any doctor's times stay open", async () => {
    const date = clinicDay(10);
    const closure = await postJson(
      '/api/closures',
      { from: date, to: date, reason: 'Conference', doctorId: 'dr-second' },
      admin,
    );
    expect(closure.status).toBe(201);
    const response = await call(`/api/appointmentOptions?date=${date}&doctorId=dr-second`);
    const cleaning = (await response.json<Option[]>()).find((o) => o._id === CLEANING);
    expect(cleaning?.closed?.reason).toBe('Dr. Second is away: Conference');
    expect(cleaning?.slots).toEqual([]);
    const open = (await (await call(`/api/appointmentOptions?date=${date}`)).json<Option[]>()).find(
      (o) => o._id === CLEANING,
    );
    expect(open?.closed).toBeNull();
    expect(open?.slots.length).toBeGreaterThan(0);
  });
});
