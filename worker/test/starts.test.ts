import { beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, bearer, call, clinicDay, count, newPatient, postJson, seed } from './helpers.ts';

// One name per time (issue 47): every free time is listed by its label and by its start ("10:00"), and every
// booking write takes the start instead of the label. The label stays what the spec shows and still books.

type Option = { _id: string; name: string; slots: string[]; starts: string[]; durationMinutes: number };

const DAY = clinicDay(12);
let admin: Record<string, string>;

async function optionsOn(day: string): Promise<Option[]> {
  const response = await call(`/api/appointmentOptions?date=${day}`);
  expect(response.status).toBe(200);
  return response.json();
}

/** "10.00 AM - 10.30 AM" -> "10:00": what the label says the start is. */
function startOfLabel(label: string): string {
  const [, hour = '', minute = '', half] = /^(\d{2})\.(\d{2}) (AM|PM)/.exec(label) ?? [];
  return `${String((Number(hour) % 12) + (half === 'PM' ? 12 : 0)).padStart(2, '0')}:${minute}`;
}

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

describe('free times by their starts', () => {
  it('lists one start per label, in the same order, for every treatment', async () => {
    const options = await optionsOn(DAY);
    expect(options.some((o) => o.slots.length > 0)).toBe(true);
    for (const option of options) {
      expect(option.starts).toEqual(option.slots.map(startOfLabel));
    }
  });

  it('books by start: the same time as its label, named by its label in the answer and the booking', async () => {
    const [cleaning] = (await optionsOn(DAY)).filter((o) => o._id === 'teeth-cleaning');
    const [start, next] = cleaning?.starts ?? [];
    const patient = await newPatient('start');
    const booked = await postJson(
      '/api/bookings',
      { treatment: 'Teeth Cleaning', appointmentDate: DAY, start, phone: '555 0100' },
      patient.auth,
    );
    expect(booked.status).toBe(201);
    const [mine] = await (await call('/api/bookings', { headers: patient.auth })).json<
      { slot: string; date: string }[]
    >();
    expect(mine).toMatchObject({ slot: cleaning?.slots[0], date: DAY });
    // Taken now, by its start and by its label alike.
    const after = (await optionsOn(DAY)).find((o) => o._id === 'teeth-cleaning');
    expect(after?.starts).not.toContain(start);
    expect(after?.slots).not.toContain(cleaning?.slots[0]);

    // Moved by start too; the answer names the new time by its label.
    const { insertedId } = await booked.json<{ insertedId: string }>();
    const moved = await postJson(
      `/api/bookings/${insertedId}/reschedule`,
      { appointmentDate: DAY, start: next },
      admin,
    );
    expect(moved.status).toBe(200);
    expect((await moved.json<{ message: string }>()).message).toContain(cleaning?.slots[1]);
  });

  it('books at the front desk and a family visit by start', async () => {
    const option = (await optionsOn(DAY)).find((o) => o._id === 'teeth-cleaning');
    const start = option?.starts.at(-1);
    const phoned = await postJson(
      '/api/phone-bookings',
      {
        patient: { name: 'Start Caller' },
        phone: '555 0199',
        treatment: 'Teeth Cleaning',
        appointmentDate: DAY,
        start,
      },
      admin,
    );
    expect(phoned.status).toBe(201);

    const parent = await newPatient('start-family');
    const child = await postJson(
      '/api/users/me/dependants',
      { name: 'Start Child', birthDate: '2018-04-01', relationship: 'child' },
      parent.auth,
    );
    const { insertedId: childId } = await child.json<{ insertedId: string }>();
    const members = `me:Teeth Cleaning,${childId}:Teeth Cleaning`;
    const fits = await call(
      `/api/appointmentOptions/family?date=${DAY}&arrangement=back-to-back&members=${encodeURIComponent(members)}`,
      { headers: parent.auth },
    );
    const family = await fits.json<{ slots: string[]; starts: string[] }>();
    expect(family.starts).toEqual(family.slots.map(startOfLabel));
    const visit = await postJson(
      '/api/bookings/family',
      {
        appointmentDate: DAY,
        start: family.starts[0],
        arrangement: 'back-to-back',
        members: [{ treatment: 'Teeth Cleaning' }, { patientId: childId, treatment: 'Teeth Cleaning' }],
      },
      parent.auth,
    );
    expect(visit.status).toBe(201);
    const { visits } = await visit.json<{ visits: { slot: string }[] }>();
    expect(visits[0]?.slot).toBe(family.slots[0]);
  });

  it.each([
    [
      'both a start and a label',
      { start: '10:00', slot: '10.00 AM - 10.30 AM' },
      'Send the time once: start ("10:00") or slot ("10.00 AM - 10.30 AM"), not both',
    ],
    ['neither', {}, 'slot is required (or its start, "10:00")'],
    ['a start that is no time', { start: '25:00' }, 'start must be a time like "10:00"'],
    ['a start in another format', { start: '10.00 AM' }, 'start must be a time like "10:00"'],
    ['a start off the grid', { start: '10:05' }, 'Teeth Cleaning has no time starting at 10:05'],
  ])('refuses %s with a 400 that says why, and books nothing', async (_, time, message) => {
    const patient = await newPatient('bad-start');
    const before = await count('bookings');
    const response = await postJson(
      '/api/bookings',
      { treatment: 'Teeth Cleaning', appointmentDate: DAY, phone: '555 0100', ...time },
      patient.auth,
    );
    expect(response.status).toBe(400);
    expect((await response.json<{ message: string }>()).message).toContain(message);
    expect(await count('bookings')).toBe(before);
  });
});
