import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { describeRequest, findToast, json, renderWithProviders, stubFetch } from '../../testing/test-utils.tsx';
import { CalendarFeed } from './calendar-feed.tsx';

it('makes a doctor’s feed, offers it to subscribe and to copy, and stops it', async () => {
  const calls: { call: string; body: string }[] = [];
  stubFetch(async (request) => {
    calls.push({ call: describeRequest(request), body: await request.text() });
    if (request.method === 'POST') {
      return json(
        {
          acknowledged: true,
          url: 'https://clinic.test/api/feeds/abc.ics',
          webcal: 'webcal://clinic.test/api/feeds/abc.ics',
        },
        201,
      );
    }
    return json({ acknowledged: true, deletedCount: 1 });
  });
  const user = userEvent.setup();
  renderWithProviders(<CalendarFeed doctorId="dr-1" who="Dr. One’s appointments" />);
  await user.click(screen.getByRole('button', { name: 'Get a calendar feed' }));
  expect((await screen.findByRole('link', { name: 'Subscribe in my calendar app' })).getAttribute('href')).toBe(
    'webcal://clinic.test/api/feeds/abc.ics',
  );
  expect(screen.getByLabelText<HTMLInputElement>('Feed address (keep it private)').value).toBe(
    'https://clinic.test/api/feeds/abc.ics',
  );
  await user.click(screen.getByRole('button', { name: 'Stop the feed' }));
  expect(await findToast('The calendar feed is stopped')).toBe('success');
  expect(screen.queryByRole('link', { name: 'Subscribe in my calendar app' })).toBeNull();
  expect(calls).toEqual([
    { call: 'POST /api/feeds', body: '{"doctorId":"dr-1"}' },
    { call: 'DELETE /api/feeds?doctorId=dr-1', body: '' },
  ]);
});
