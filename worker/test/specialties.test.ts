import { beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, addDoctorAs, bearer, bookAs, call, clinicDay, newPatient, seed, slotsOf } from './helpers.ts';

let admin: Record<string, string>;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

const send = (method: string, path: string, body?: unknown) =>
  call(path, {
    method,
    headers: { ...admin, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const listed = async () =>
  (await send('GET', '/api/specialties')).json<{ _id: string; name: string; doctors: number; treatments: number }[]>();

describe('the clinic’s specialties', () => {
  it('lists each with how many doctors and treatments have it', async () => {
    expect(await listed()).toEqual([
      { _id: 'general-dentistry', name: 'General Dentistry', doctors: 1, treatments: 4 },
      { _id: 'endodontics', name: 'Endodontics', doctors: 1, treatments: 1 },
      { _id: 'cosmetic-dentistry', name: 'Cosmetic Dentistry', doctors: 1, treatments: 1 },
      { _id: 'orthodontics', name: 'Orthodontics', doctors: 1, treatments: 1 },
    ]);
  });

  it('adds Periodontics without SQL: a treatment and a doctor of it, and patients book it', async () => {
    const added = await send('POST', '/api/specialties', { name: 'Periodontics' });
    expect(added.status).toBe(201);
    const { insertedId } = await added.json<{ insertedId: string }>();
    expect((await listed()).at(-1)).toEqual({ _id: insertedId, name: 'Periodontics', doctors: 0, treatments: 0 });
    expect(await (await call('/api/appointmentSpecialty')).json()).toContainEqual({
      _id: insertedId,
      name: 'Periodontics',
    });
    const treatment = await send('POST', '/api/treatments', {
      name: 'Gum Care',
      price: 90,
      durationMinutes: 45,
      specialty: 'Periodontics',
    });
    expect(treatment.status).toBe(201);
    const date = clinicDay(5);
    expect(await slotsOf(date, (await treatment.json<{ insertedId: string }>()).insertedId)).toEqual([]);
    await addDoctorAs(admin, { name: 'Dr. Gum', email: 'gum@clinic.test', specialty: 'Periodontics' });
    const patient = await newPatient();
    const booked = await bookAs(patient.auth, {
      treatment: 'Gum Care',
      appointmentDate: date,
      slot: '09.00 AM - 09.45 AM',
    });
    expect(booked.status).toBe(201);
  });

  it('refuses a name taken (any case) with 409, and a bad one with 400', async () => {
    const taken = await send('POST', '/api/specialties', { name: 'orthodontics' });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ acknowledged: false, message: 'A specialty with this name already exists' });
    expect((await send('POST', '/api/specialties', { name: '  ' })).status).toBe(400);
    expect((await send('POST', '/api/specialties', { name: 'Oral\nSurgery' })).status).toBe(400);
    expect((await send('PUT', '/api/specialties/endodontics', { name: 'General Dentistry' })).status).toBe(409);
  });

  it('renames one: its doctors and treatments keep it', async () => {
    const renamed = await send('PUT', '/api/specialties/endodontics', { name: 'Endodontics & Root Care' });
    expect(await renamed.json()).toEqual({
      acknowledged: true,
      modifiedCount: 1,
      message: 'Renamed to Endodontics & Root Care',
    });
    expect((await listed()).find((s) => s._id === 'endodontics')).toMatchObject({ doctors: 1, treatments: 1 });
    expect((await send('PUT', '/api/specialties/no-such', { name: 'X' })).status).toBe(404);
  });

  it('deletes an unused one; refuses one in use with 409 saying who has it', async () => {
    const inUse = await send('DELETE', '/api/specialties/general-dentistry');
    expect(inUse.status).toBe(409);
    expect(await inUse.json()).toEqual({
      acknowledged: false,
      message:
        'General Dentistry is the specialty of 1 doctor and 4 treatments; give them another specialty before deleting it',
    });
    const { insertedId } = await (await send('POST', '/api/specialties', { name: 'Oral Surgery' })).json<{
      insertedId: string;
    }>();
    expect(await (await send('DELETE', `/api/specialties/${insertedId}`)).json()).toEqual({
      acknowledged: true,
      deletedCount: 1,
    });
    expect((await send('DELETE', `/api/specialties/${insertedId}`)).status).toBe(404);
    const audit = await (await send('GET', '/api/audit?type=specialty.deleted')).json<{ entries: unknown[] }>();
    expect(audit.entries).toHaveLength(1);
  });
});
