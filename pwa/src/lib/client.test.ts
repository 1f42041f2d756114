import { beforeEach, describe, expect, it } from 'vitest';
import { describeRequest, json, stubFetch } from '../testing/test-utils.tsx';
import { client } from './client.ts';
import { pathOf, prefixOf } from './route-paths.ts';

let sent: { request: string; body: string; type: string | null }[];

beforeEach(() => {
  sent = [];
  localStorage.setItem('accessToken', 'token');
  stubFetch(async (request) => {
    sent.push({
      request: describeRequest(request),
      body: await request.text(),
      type: request.headers.get('Content-Type'),
    });
    return json({ acknowledged: true, insertedId: 'b9' }, 201);
  });
});

describe('the typed client of the route table', () => {
  it('names a call’s path from its route: parameters and query encoded, empty query values left out', () => {
    expect(pathOf('GET /bookings/:id', { params: { id: 'a/b c' } })).toBe('/bookings/a%2Fb%20c');
    expect(pathOf('GET /appointmentOptions', { query: { date: 'Dec 3, 2026', doctorId: null } })).toBe(
      '/appointmentOptions?date=Dec%203%2C%202026',
    );
    expect(pathOf('GET /images/:key+', { params: { key: 'doctors/dr one.png' } })).toBe('/images/doctors/dr%20one.png');
    expect(pathOf('GET /team')).toBe('/team');
    expect(prefixOf('GET /fees/:id')).toBe('/fees/');
    expect(prefixOf('GET /insights')).toBe('/insights');
  });

  it('sends a route’s method, path and JSON body, and answers its JSON', async () => {
    const answer = await client('POST /bookings/:id/reschedule', {
      params: { id: 'b1' },
      body: { appointmentDate: '2026-12-03', start: '10:00' },
    });

    expect(answer).toEqual({ acknowledged: true, insertedId: 'b9' });
    expect(sent).toEqual([
      {
        request: 'POST /api/bookings/b1/reschedule',
        body: '{"appointmentDate":"2026-12-03","start":"10:00"}',
        type: 'application/json',
      },
    ]);
  });

  it('is typed from the table: an unknown route, a missing parameter or a wrong body does not compile', () => {
    const never = () => {
      // @ts-expect-error no such route in contract/routes.ts: renaming one breaks every caller's build
      void client('POST /bookingz', { body: {} });
      // @ts-expect-error the route names a booking
      void client('DELETE /bookings/:id');
      // @ts-expect-error a booking's date is a string
      void client('POST /bookings', { body: { treatment: 'Teeth Cleaning', appointmentDate: 3, slot: 'x' } });
    };
    expect(never).toBeTypeOf('function');
  });
});
