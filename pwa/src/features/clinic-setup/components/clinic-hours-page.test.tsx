import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import {
  describeRequest,
  dryRunAnswer,
  findToast,
  json,
  renderWithProviders,
  storeSession,
  stubFetch,
} from '../../../testing/test-utils.tsx';
import type { OpeningHours } from '../api/clinic-hours.ts';
import type { Closure } from '../api/closures.ts';

const STRANDED = {
  _id: 'b7',
  treatment: 'Root Canal',
  appointmentDate: 'Dec 24, 2026',
  date: '2026-12-24',
  slot: '10.00 AM - 11.30 AM',
  patientName: 'Jamie Patient',
  email: 'patient@clinic.test',
  phone: '',
  doctor: 'Dr. Ben Ito',
};

let hours: OpeningHours[];
let closures: Closure[];
let writes: { line: string; body: Record<string, unknown> | undefined }[];
/** The dry runs the page asked before a change. */
let asked: string[];
let strandsFirst: boolean;
const WITHDRAWN = {
  _id: 'o1',
  treatment: 'Root Canal Treatment',
  appointmentDate: 'Dec 24, 2026',
  date: '2026-12-24',
  slot: '10.00 AM - 11.30 AM',
  patientName: 'Wanda Waiting',
  email: 'wanda@example.com',
};

beforeEach(() => {
  // Mon–Fri 09:00–17:00, Saturday 10:00–14:00, Sunday closed.
  hours = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, open: '09:00', close: '17:00' }));
  hours.push({ weekday: 6, open: '10:00', close: '14:00' });
  closures = [
    {
      _id: 'c1',
      from: '2026-12-25',
      to: '2026-12-26',
      reason: 'Christmas',
      doctorId: null,
      doctor: null,
      createdAt: '2026-11-01T10:00:00.000Z',
    },
  ];
  writes = [];
  asked = [];
  strandsFirst = false;
  stubFetch(async (request) => {
    const url = new URL(request.url);
    const line = describeRequest(request);
    if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (url.pathname === '/api/doctors') {
      return json([
        {
          _id: 'd2',
          name: 'Dr. Ben Ito',
          email: 'ben@clinic.test',
          specialty: 'Endodontics',
          image: '/api/images/doctors/ben.png',
          workingDays: [1, 2, 3, 4, 5],
          hours: { start: '09:00', end: '17:00' },
          weeklyHours: [
            { weekday: 1, start: '09:00', end: '17:00' },
            { weekday: 2, start: '09:00', end: '17:00' },
            { weekday: 3, start: '09:00', end: '17:00' },
            { weekday: 4, start: '09:00', end: '17:00' },
            { weekday: 5, start: '09:00', end: '17:00' },
          ],
        },
      ]);
    }
    if (request.method === 'GET' && url.pathname === '/api/clinic/hours') return json(hours);
    if (request.method === 'GET' && url.pathname === '/api/closures') return json(closures);
    if (url.searchParams.get('dryRun') === '1') {
      asked.push(line);
      return dryRunAnswer(strandsFirst ? [STRANDED] : []);
    }
    const body = request.method === 'DELETE' ? undefined : ((await request.json()) as Record<string, unknown>);
    writes.push({ line, body });
    const goAhead = Boolean(body?.force || body?.bookings);
    if (strandsFirst && body && !goAhead) {
      return json({ acknowledged: false, message: '1 upcoming booking would be left out', stranded: [STRANDED] }, 409);
    }
    const stranded = body?.force || body?.bookings === 'keep' ? [STRANDED] : [];
    if (line === 'PUT /api/clinic/hours') {
      hours = body!.hours as OpeningHours[];
      return json({ acknowledged: true, hours, stranded, withdrawnOffers: body?.force ? [WITHDRAWN] : [] });
    }
    if (line === 'POST /api/closures') {
      const { from, to, reason, doctorId = null } = body as Record<string, string>;
      closures.push({
        _id: 'c2',
        from: from!,
        to: to!,
        reason: reason!,
        doctorId,
        doctor: doctorId && 'Dr. Ben Ito',
        createdAt: '',
      });
      const withdrawnOffers = goAhead ? [WITHDRAWN] : [];
      const cancelled = body?.bookings === 'cancel' ? [STRANDED] : [];
      return json({ acknowledged: true, insertedId: 'c2', stranded, cancelled, withdrawnOffers });
    }
    if (line.startsWith('DELETE /api/closures/')) {
      closures = closures.filter((c) => c._id !== url.pathname.split('/').pop());
      return json({ acknowledged: true, deletedCount: 1 });
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

async function openClinicHours() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/dashboard/clinic-hours' });
  await screen.findByRole('heading', { level: 1, name: 'Clinic hours and closures' });
  await screen.findByRole('group', { name: 'Monday' });
  await screen.findByRole('table', { name: 'Closures' });
  return user;
}

const day = (name: string) => within(screen.getByRole('group', { name }));
const closuresForm = () => within(screen.getByRole('form', { name: 'Add a closure' }));

describe('Clinic hours and closures: opening hours', () => {
  it('shows a row per weekday, Monday first, open with its hours or closed', async () => {
    await openClinicHours();
    const legends = [...document.querySelectorAll('.hours-row legend')].map((l) => l.textContent);
    expect(legends).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    expect((day('Saturday').getByLabelText('Opens at') as HTMLSelectElement).value).toBe('10:00');
    expect((day('Saturday').getByLabelText('Closes at') as HTMLSelectElement).value).toBe('14:00');
    expect((day('Sunday').getByRole('checkbox', { name: 'Open' }) as HTMLInputElement).checked).toBe(false);
    expect(day('Sunday').getByText('Closed')).toBeTruthy();
  });

  it('saves the week: a day unticked is left out, so it is closed', async () => {
    const user = await openClinicHours();
    await user.click(day('Saturday').getByRole('checkbox', { name: 'Open' }));
    await user.click(day('Sunday').getByRole('checkbox', { name: 'Open' }));
    await user.selectOptions(day('Sunday').getByLabelText('Closes at'), '13:00');
    await user.click(screen.getByRole('button', { name: 'Save hours' }));

    expect(await findToast('Opening hours saved')).toBe('success');
    expect(writes).toEqual([
      {
        line: 'PUT /api/clinic/hours',
        body: {
          hours: [
            ...[1, 2, 3, 4, 5].map((weekday) => ({ weekday, open: '09:00', close: '17:00' })),
            { weekday: 0, open: '09:00', close: '13:00' },
          ],
          force: false,
        },
      },
    ]);
  });

  it('refuses a closing time that is not after the opening, and sends nothing', async () => {
    const user = await openClinicHours();
    await user.selectOptions(day('Monday').getByLabelText('Closes at'), '08:00');
    await user.click(screen.getByRole('button', { name: 'Save hours' }));
    expect(await day('Monday').findByText('closing must be later than opening')).toBeTruthy();
    expect(writes).toEqual([]);
  });

  it('lists the bookings new hours would strand, and keeps them on "Save anyway"', async () => {
    strandsFirst = true;
    const user = await openClinicHours();
    await user.click(day('Saturday').getByRole('checkbox', { name: 'Open' }));
    await user.click(screen.getByRole('button', { name: 'Save hours' }));

    const conflict = within(await screen.findByRole('dialog', { name: '1 upcoming booking would no longer fit' }));
    expect(conflict.getByText(/Root Canal, Dec 24, 2026 at 10.00 AM - 11.30 AM/)).toBeTruthy();
    expect(conflict.getByText(/Dr\. Ben Ito · patient@clinic\.test/)).toBeTruthy();
    await user.click(conflict.getByRole('button', { name: 'Save anyway' }));

    expect(await findToast('Opening hours saved')).toBe('success');
    // Asked first (a dry run), so nothing was sent to be refused.
    expect(asked).toEqual(['PUT /api/clinic/hours?dryRun=1']);
    expect(writes.map((w) => w.body?.force)).toEqual([true]);
    expect(screen.getByText(/^Kept 1 upcoming booking for the front desk to rearrange/)).toBeTruthy();
    const withdrawn = within(
      screen.getByText('Withdrew 1 waitlist offer; each patient was told by mail:').nextElementSibling as HTMLElement,
    );
    expect(withdrawn.getByText('Wanda Waiting')).toBeTruthy();
    expect(withdrawn.getByText('wanda@example.com')).toBeTruthy();
  });
});

describe('Clinic hours and closures: closures', () => {
  it('lists the closures with their dates, reason and whom they close', async () => {
    await openClinicHours();
    const [, first] = within(screen.getByRole('table', { name: 'Closures' })).getAllByRole('row');
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((c) => c.textContent)
        .slice(0, 3),
    ).toEqual(['Dec 25, 2026 – Dec 26, 2026', 'Christmas', 'Whole clinic']);
  });

  it('adds a one-day closure for one doctor', async () => {
    const user = await openClinicHours();
    const form = closuresForm();
    await user.type(form.getByLabelText('First day'), '2026-12-31');
    await user.type(form.getByLabelText('Reason'), 'Conference');
    await user.selectOptions(form.getByLabelText('Closed for'), 'Dr. Ben Ito');
    await user.click(form.getByRole('button', { name: 'Add closure' }));

    expect(await findToast('Closure added')).toBe('success');
    expect(writes).toEqual([
      {
        line: 'POST /api/closures',
        body: { from: '2026-12-31', to: '2026-12-31', reason: 'Conference', doctorId: 'd2' },
      },
    ]);
    await waitFor(() => expect(screen.getByRole('cell', { name: 'Dec 31, 2026' })).toBeTruthy());
    expect((form.getByLabelText('Reason') as HTMLInputElement).value).toBe('');
  });

  it('validates a closure and sends nothing until it is right', async () => {
    const user = await openClinicHours();
    const form = closuresForm();
    await user.click(form.getByRole('button', { name: 'Add closure' }));
    expect(await form.findByText('first day is required')).toBeTruthy();
    expect(form.getByText('reason is required')).toBeTruthy();
    await user.type(form.getByLabelText('First day'), '2026-12-31');
    await user.type(form.getByLabelText('Last day (empty: one day)'), '2026-12-30');
    await user.click(form.getByRole('button', { name: 'Add closure' }));
    expect(await form.findByText('the last day must not be before the first')).toBeTruthy();
    expect(writes).toEqual([]);
  });

  it('lists the bookings a closure would strand, keeps them for review on that choice, and says which offers it withdrew', async () => {
    strandsFirst = true;
    const user = await openClinicHours();
    const form = closuresForm();
    await user.type(form.getByLabelText('First day'), '2026-12-24');
    await user.type(form.getByLabelText('Reason'), 'Christmas Eve');
    await user.click(form.getByRole('button', { name: 'Add closure' }));

    const conflict = within(await screen.findByRole('dialog', { name: '1 upcoming booking would no longer fit' }));
    await user.click(conflict.getByRole('button', { name: 'Keep them for review' }));
    expect(await findToast('Closure added')).toBe('success');
    expect(asked).toEqual(['POST /api/closures?dryRun=1']);
    expect(writes.map((w) => w.body?.bookings)).toEqual(['keep']);
    expect(screen.getByText(/^Kept 1 upcoming booking for the front desk to rearrange/)).toBeTruthy();
    const withdrawn = within(
      screen.getByText('Withdrew 1 waitlist offer; each patient was told by mail:').nextElementSibling as HTMLElement,
    );
    expect(withdrawn.getByText('Wanda Waiting')).toBeTruthy();
    expect(withdrawn.getByText('wanda@example.com')).toBeTruthy();
  });

  it('cancels the bookings a closure strands on "Cancel them and tell the patients", and lists them', async () => {
    strandsFirst = true;
    const user = await openClinicHours();
    const form = closuresForm();
    await user.type(form.getByLabelText('First day'), '2026-12-24');
    await user.type(form.getByLabelText('Reason'), 'Christmas Eve');
    await user.click(form.getByRole('button', { name: 'Add closure' }));

    const conflict = within(await screen.findByRole('dialog', { name: '1 upcoming booking would no longer fit' }));
    expect(conflict.getByText(/“Cancel them and tell the patients” cancels it, refunds what was paid/)).toBeTruthy();
    await user.click(conflict.getByRole('button', { name: 'Cancel them and tell the patients' }));
    expect(await findToast('Closure added')).toBe('success');
    expect(writes.map((w) => w.body?.bookings)).toEqual(['cancel']);
    const cancelled = within(
      screen.getByText('Cancelled 1 upcoming booking; each patient was told why by mail:')
        .nextElementSibling as HTMLElement,
    );
    expect(cancelled.getByText('Jamie Patient')).toBeTruthy();
  });

  it('deletes a closure after a confirmation', async () => {
    const user = await openClinicHours();
    await user.click(within(screen.getByRole('table', { name: 'Closures' })).getByRole('button', { name: 'Delete' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Delete the closure “Christmas”?' }));
    expect(dialog.getByText('Patients can book Dec 25, 2026 – Dec 26, 2026 again.')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await findToast('Closure deleted')).toBe('success');
    expect(writes.map((w) => w.line)).toEqual(['DELETE /api/closures/c1']);
    expect(await screen.findByText('No closures.')).toBeTruthy();
  });
});
