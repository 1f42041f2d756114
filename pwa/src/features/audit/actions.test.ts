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
});
