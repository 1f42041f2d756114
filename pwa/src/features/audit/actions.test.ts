import { describe, expect, it } from 'vitest';
import { changesOf } from './actions.ts';

describe('the Activity page’s changes, in words', () => {
  it('leaves out fields that hold an id and says codes and dates in words', () => {
    expect(
      changesOf({
        before: { appointmentDate: '2026-12-01', slot: '09.00 AM - 09.30 AM', status: 'active' },
        after: {
          appointmentDate: '2026-12-03',
          slot: '10.00 AM - 10.30 AM',
          movedTo: '4d819278-8c5e-4b0a-a4c1-0f6a2e1d9b77',
          status: 'cancelled',
          cancelReason: 'admin',
          refundStatus: 'due',
        },
      }),
    ).toEqual([
      { field: 'date', before: 'Dec 1, 2026', after: 'Dec 3, 2026' },
      { field: 'slot', before: '09.00 AM - 09.30 AM', after: '10.00 AM - 10.30 AM' },
      { field: 'status', before: 'booked', after: 'cancelled' },
      { field: 'cancelled by', before: undefined, after: 'the clinic' },
      { field: 'refund', before: undefined, after: 'to be given back by the clinic' },
    ]);
  });

  it('says which days of a week changed, never the whole week or JSON', () => {
    const week = (saturday: string) => [
      { weekday: 1, open: '09:00', close: '17:00' },
      { weekday: 6, open: '09:00', close: saturday },
    ];
    expect(changesOf({ before: { hours: week('17:00') }, after: { hours: week('13:00') } })).toEqual([
      { field: 'Saturday', before: '09:00–17:00', after: '09:00–13:00' },
    ]);
    // A doctor's week, as the trail has always held it.
    expect(
      changesOf({
        before: { hours: 'Mon 09:00-17:00, Tue 09:00-17:00', photo: 'https://clinic.test/api/images/a.webp' },
        after: { hours: 'Mon 09:00-17:00, Wed 10:00-14:00', photo: 'https://clinic.test/api/images/b.webp' },
      }),
    ).toEqual([
      { field: 'Tuesday', before: '09:00–17:00', after: 'closed' },
      { field: 'Wednesday', before: 'closed', after: '10:00–14:00' },
      { field: 'photo', after: 'a new one' },
    ]);
  });

  it('says an object’s changed fields by name, and lists in words', () => {
    const lines = changesOf({
      before: { reminders: { sms: true, hoursBefore: 24 }, workingDays: [1, 2], note: 'x' },
      after: { reminders: { sms: false, hoursBefore: 24 }, workingDays: [1, 2, 3], note: 'x' },
    });
    expect(lines).toEqual([
      { field: 'reminders sms', before: 'yes', after: 'no' },
      { field: 'working days', before: '1, 2', after: '1, 2, 3' },
    ]);
    for (const line of lines) expect(`${line.before} ${line.after}`).not.toMatch(/[{}[\]"]/);
  });
});
