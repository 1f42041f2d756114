import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import { json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';
import type { AuditEntry } from '../api/get-audit-trail.ts';

const admin = { id: 'u-admin', email: 'admin@clinic.test', label: 'admin' };

function entry(n: number, fields: Partial<AuditEntry> = {}): AuditEntry {
  return {
    _id: String(n),
    at: `2026-11-20T15:${String(n % 60).padStart(2, '0')}:00.000Z`,
    actor: admin,
    action: 'user.made_admin',
    target: { type: 'user', id: `u-${n}`, name: `Person ${n} (p${n}@example.com)` },
    before: { role: 'patient' },
    after: { role: 'admin' },
    ...fields,
  };
}

/** The server's audit trail, newest first; the fake answers it 2 a page, filtered as the Worker does. */
let trail: AuditEntry[];
let requests: URL[];
let failNextPage: boolean;

beforeEach(() => {
  trail = [];
  requests = [];
  failNextPage = false;
  stubFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (url.pathname !== '/api/audit') return json({ message: 'Not found' }, 404);
    requests.push(url);
    const cursor = url.searchParams.get('cursor');
    if (cursor && failNextPage) {
      failNextPage = false;
      return json({ message: 'The service is busy, please try again' }, 503);
    }
    const type = url.searchParams.get('type');
    const actor = url.searchParams.get('actor');
    const matching = trail.filter(
      (e) => (!type || e.action === type) && (!actor || e.actor.email === actor || e.actor.id === actor),
    );
    const start = cursor ? Number(cursor) : 0;
    const entries = matching.slice(start, start + 2);
    return json({ entries, nextCursor: start + 2 < matching.length ? String(start + 2) : null });
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

async function openActivity() {
  renderWithProviders(<AppRoutes />, { path: '/dashboard/activity' });
  await screen.findByRole('heading', { level: 1, name: 'Activity' });
}

/** The log's entries, each as its lines' text: what, each change, then when and who. */
async function rows() {
  const log = await screen.findByRole('list', { name: 'Activity' });
  return within(log)
    .getAllByRole('listitem')
    .filter((item) => item.parentElement === log)
    .map((item) => [...item.querySelectorAll('p, li')].map((line) => line.textContent));
}

describe('Activity page', () => {
  it('shows each entry as a line in words, what changed, when and who, newest first', async () => {
    trail = [
      entry(3, {
        actor: { id: null, email: null, label: 'stripe' },
        action: 'payment.succeeded',
        target: { type: 'booking', id: 'b-1', name: 'Pat Patient: Teeth Cleaning, 2026-11-21, 09.00 AM - 09.30 AM' },
        before: { paid: false },
        after: { paid: true, amount: 60 },
      }),
      entry(2, {
        action: 'doctor.deleted',
        target: { type: 'doctor', id: 'd-1', name: 'Dr. Gone' },
        before: { name: 'Dr. Gone', workingDays: [1, 2] },
        after: null,
      }),
    ];
    await openActivity();
    expect(await rows()).toEqual([
      [
        'Payment received: Pat Patient: Teeth Cleaning, 2026-11-21, 09.00 AM - 09.30 AM',
        'paid: no → yes',
        'amount: $60',
        expect.stringMatching(/^Nov 20, 2026, \d{1,2}:03 (AM|PM) · Stripe \(payment webhook\)$/),
      ],
      [
        'Deleted doctor: Dr. Gone',
        'name: Dr. Gone',
        'working days: 1, 2',
        expect.stringMatching(/^Nov 20, 2026, .* · admin@clinic\.test \(admin\)$/),
      ],
    ]);
    const when = document.querySelector('time');
    expect(when?.getAttribute('dateTime')).toBe('2026-11-20T15:03:00.000Z');
  });

  it('loads more, a page at a time, until there is no more', async () => {
    trail = [entry(5), entry(4), entry(3), entry(2), entry(1)];
    const user = userEvent.setup();
    await openActivity();
    await waitFor(async () => expect(await rows()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(async () => expect(await rows()).toHaveLength(4));
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(async () => expect(await rows()).toHaveLength(5));
    expect((await rows()).map((lines) => lines[0])).toEqual(
      [5, 4, 3, 2, 1].map((n) => `Made admin: Person ${n} (p${n}@example.com)`),
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(requests.map((url) => url.searchParams.get('cursor'))).toEqual([null, '2', '4']);
  });

  it('says so when a further page fails, and Load more tries again', async () => {
    trail = [entry(3), entry(2), entry(1)];
    const user = userEvent.setup();
    await openActivity();
    failNextPage = true;
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'More activity could not be loaded: The service is busy, please try again',
    );
    expect(await rows()).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(async () => expect(await rows()).toHaveLength(3));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('filters by action and by who acted', async () => {
    trail = [
      entry(3, { action: 'review.approved', target: { type: 'review', id: 'r-1', name: 'Pat' } }),
      entry(2, { actor: { id: 'u-2', email: 'other@clinic.test', label: 'admin' } }),
      entry(1),
    ];
    const user = userEvent.setup();
    await openActivity();
    await waitFor(async () => expect(await rows()).toHaveLength(2));
    // (happy-dom gives <search> no role; the browser test finds the landmark.)
    const filters = screen.getByRole('button', { name: 'Show' }).closest('search') as HTMLElement;
    expect(filters.getAttribute('aria-label')).toBe('Filter activity');
    await user.selectOptions(within(filters).getByLabelText('Action'), 'Made admin');
    await user.type(within(filters).getByLabelText('Who'), ' other@clinic.test ');
    await user.click(within(filters).getByRole('button', { name: 'Show' }));
    await waitFor(async () =>
      expect((await rows()).map((lines) => lines.at(-1))).toEqual([
        expect.stringMatching(/ · other@clinic\.test \(admin\)$/),
      ]),
    );
    expect(requests.at(-1)?.search).toBe('?type=user.made_admin&actor=other%40clinic.test');

    await user.clear(within(filters).getByLabelText('Who'));
    await user.type(within(filters).getByLabelText('Who'), 'nobody@clinic.test');
    await user.click(within(filters).getByRole('button', { name: 'Show' }));
    expect(await screen.findByText('No activity matches these filters.')).toBeTruthy();
  });

  it('says so when there is no activity yet', async () => {
    await openActivity();
    expect(await screen.findByText('No activity yet.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Activity' })).toBeNull();
  });
});
