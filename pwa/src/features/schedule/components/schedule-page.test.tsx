import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import { sharedOutbox } from '../../../lib/outbox.ts';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import {
  accessTokenFor,
  describeRequest,
  findToast,
  json,
  renderWithProviders,
  storeSession,
  stubFetch,
} from '../../../testing/test-utils.tsx';
import type { ScheduleDay, ScheduleEntry } from '../api/get-schedule.ts';

// 10:00 in New York on Saturday, Nov 21, 2026.
const NOW = new Date('2026-11-21T15:00:00Z');

function entry(id: string, fields: Partial<ScheduleEntry>): ScheduleEntry {
  return {
    _id: id,
    userId: `u-${id}`,
    patientName: 'Pat Patient',
    email: 'pat@example.com',
    phone: '555 0100',
    treatment: 'Orthodontic Consultation',
    treatmentId: 'orthodontic-consultation',
    start: '09:00',
    startMinute: 540,
    durationMinutes: 60,
    slot: '09.00 AM - 10.00 AM',
    startsAt: '2026-11-21T14:00:00.000Z',
    doctor: { _id: 'dr-hiro', name: 'Dr. Hiro Tanaka' },
    chair: { _id: 'chair-1', name: 'Chair 1' },
    price: 120,
    paid: true,
    payment: null,
    payBy: null,
    deposit: null,
    balanceDue: 0,
    noShowFee: 0,
    fee: null,
    status: 'active',
    cancelReason: null,
    cancelNote: null,
    confirmation: 'unconfirmed',
    familyVisitId: null,
    family: [],
    needsReview: false,
    noShows: 0,
    formsComplete: true,
    formsMissing: [],
    alerts: [],
    note: null,
    noteVersion: 0,
    version: 1,
    ...fields,
  };
}

const DAY: ScheduleDay = {
  date: '2026-11-21',
  appointmentDate: 'Nov 21, 2026',
  hours: { open: '09:00', close: '17:00' },
  closures: [],
  doctors: [
    { _id: 'dr-hiro', name: 'Dr. Hiro Tanaka', specialty: 'Orthodontics' },
    { _id: 'dr-sofia', name: 'Dr. Sofia Alvarez', specialty: 'General Dentistry' },
  ],
  chairs: [
    { _id: 'chair-1', name: 'Chair 1' },
    { _id: 'chair-2', name: 'Chair 2' },
  ],
  bookings: [
    entry('b-started', {
      family: [
        { name: 'Paula Patient', accountHolder: true },
        { name: 'Pip Patient', accountHolder: false },
      ],
    }),
    entry('b-later', {
      patientName: 'Sam Later',
      treatment: 'Teeth Cleaning',
      treatmentId: 'teeth-cleaning',
      start: '14:00',
      startMinute: 840,
      durationMinutes: 30,
      slot: '02.00 PM - 02.30 PM',
      startsAt: '2026-11-21T19:00:00.000Z',
      doctor: { _id: 'dr-sofia', name: 'Dr. Sofia Alvarez' },
      chair: { _id: 'chair-2', name: 'Chair 2' },
      price: 80,
      paid: false,
      noShows: 2,
      confirmation: 'callback',
      familyVisitId: 'fv-1',
    }),
    entry('b-gone', {
      patientName: 'Cy Cancelled',
      start: '11:00',
      startMinute: 660,
      status: 'cancelled',
      cancelReason: 'admin',
      cancelNote: 'Doctor away',
    }),
  ],
};

const familyQueries: string[] = [];
let requests: { line: string; body: string }[];
let review: ScheduleEntry[];
/** The network fails for every request (a dropped connection). */
let offline = false;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  requests = [];
  review = [];
  offline = false;
  stubFetch(async (request) => {
    if (offline) throw new TypeError('Failed to fetch');
    const url = new URL(request.url);
    requests.push({ line: describeRequest(request), body: request.method === 'GET' ? '' : await request.text() });
    if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (/^\/api\/users\/[^/]+\/statement$/.test(url.pathname)) return json({ people: [], balance: 120, fees: [] });
    if (url.pathname === '/api/schedule' && url.searchParams.has('date')) {
      const date = url.searchParams.get('date') ?? '';
      return json(date === DAY.date ? DAY : { ...DAY, date, appointmentDate: date, bookings: [] });
    }
    if (url.pathname === '/api/schedule') {
      const from = new Date(`${url.searchParams.get('from')}T12:00:00Z`);
      return json(
        Array.from({ length: 7 }, (_, i) => {
          const date = new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10);
          return { date, count: date === DAY.date ? 2 : 0 };
        }),
      );
    }
    if (url.pathname === '/api/schedule/review')
      return json(review.map((e) => ({ ...e, date: '2026-11-24', appointmentDate: 'Nov 24, 2026' })));
    if (url.pathname === '/api/treatments')
      return json([
        {
          _id: 'teeth-cleaning',
          name: 'Teeth Cleaning',
          price: 80,
          durationMinutes: 30,
          specialty: 'General Dentistry',
          active: true,
        },
      ]);
    if (url.pathname === '/api/doctors')
      return json(
        [
          ['dr-sofia', 'Dr. Sofia Alvarez', 'General Dentistry'],
          ['dr-hiro', 'Dr. Hiro Tanaka', 'Orthodontics'],
        ].map(([_id, name, specialty]) => ({
          _id,
          name,
          specialty,
          email: '',
          image: '',
          workingDays: [],
          hours: { start: '09:00', end: '17:00' },
          weeklyHours: [],
        })),
      );
    if (url.pathname === '/api/users/search') {
      return json([
        {
          _id: 'u-pat',
          name: 'Pat Patient',
          email: 'pat@example.com',
          phone: '555 0100',
          noShows: 1,
          hasAccount: true,
          family: [],
        },
        {
          _id: 'u-fay',
          name: 'Fay Family',
          email: 'fay@example.com',
          phone: '555 0199',
          noShows: 0,
          hasAccount: true,
          family: [{ _id: 'd-finn', name: 'Finn Family' }],
        },
      ]);
    }
    if (url.pathname === '/api/appointmentOptions/family') {
      familyQueries.push(url.search);
      return json({
        slots: ['02.30 PM - 03.00 PM'],
        starts: ['14:30'],
        spans: ['02.30 PM - 03.30 PM'],
        reason: null,
        suggestion: null,
      });
    }
    if (url.pathname === '/api/appointmentOptions') {
      return json([
        {
          _id: 'teeth-cleaning',
          name: 'Teeth Cleaning',
          slots: ['02.30 PM - 03.00 PM', '03.00 PM - 03.30 PM'],
          starts: ['14:30', '15:00'],
          price: 80,
          durationMinutes: 30,
        },
      ]);
    }
    if (request.method === 'POST' && requests.at(-1)?.body.includes('"refund":true')) {
      const refund = { status: 'succeeded', amount: 120, currency: 'usd' };
      return json({ acknowledged: true, modifiedCount: 1, message: 'Booking cancelled', refund });
    }
    if (request.method === 'POST') return json({ acknowledged: true, modifiedCount: 1, message: 'Done at the desk' });
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

afterEach(() => vi.useRealTimers());

async function openSchedule() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/dashboard/schedule' });
  await screen.findByRole('heading', { level: 1, name: 'Schedule' });
  await screen.findByRole('list', { name: 'Dr. Hiro Tanaka' });
  return user;
}

const posts = () => requests.filter((r) => r.line.startsWith('POST'));

describe('Schedule (front desk)', () => {
  it('shows the day as a column per doctor, each booking a block as tall as it is long, and the week’s counts', async () => {
    const user = await openSchedule();
    const hiro = screen.getByRole('list', { name: 'Dr. Hiro Tanaka' });
    const block = within(hiro).getByRole('button', { name: /09:00–10:00 Pat Patient/ });
    expect(block.closest('li')?.style.height).toBe('168px'); // 60 minutes
    const sofia = screen.getByRole('list', { name: 'Dr. Sofia Alvarez' });
    const later = within(sofia).getByRole('button', { name: /14:00–14:30 Sam Later/ });
    expect(later.textContent).toContain('Unpaid');
    expect(later.textContent).toContain('2 no-shows');
    expect(later.textContent).toContain('Please call');
    expect(later.textContent).toContain('Family visit');
    expect(later.closest('li')?.hasAttribute('data-callback')).toBe(true);
    // The patients who asked to be called come first, above the day.
    const calls = screen.getByRole('region', { name: 'Confirmations: 0 of 2 confirmed, 1 asked to be called' });
    expect(within(calls).getByRole('button', { name: 'Please call Sam Later' })).toBeTruthy();
    expect(later.closest('li')?.style.height).toBe('84px'); // 30 minutes
    // Unpaid looks unlike paid.
    expect(later.closest('li')?.hasAttribute('data-unpaid')).toBe(true);
    expect(block.closest('li')?.hasAttribute('data-unpaid')).toBe(false);
    // The cancelled booking is not on the grid but listed below, with the clinic's reason.
    expect(within(hiro).queryByText(/Cy Cancelled/)).toBeNull();
    const cancelled = screen.getByRole('region', { name: 'Cancelled' });
    expect(cancelled.textContent).toContain('Cy Cancelled');
    expect(cancelled.textContent).toContain('by the clinic: Doctor away');
    expect(screen.getByText('Open 09:00–17:00. 2 appointments.')).toBeTruthy();
    const today = await screen.findByRole('button', { name: 'Saturday, Nov 21: 2 appointments' });
    expect(today.getAttribute('aria-current')).toBe('date');

    await user.click(screen.getByRole('button', { name: 'Chairs' }));
    expect(screen.queryByRole('list', { name: 'Dr. Hiro Tanaka' })).toBeNull();
    expect(within(screen.getByRole('list', { name: 'Chair 2' })).getByRole('button').textContent).toContain(
      'Sam Later',
    );

    await user.click(screen.getByRole('button', { name: 'Next day' }));
    await screen.findByText('Sunday, Nov 22, 2026');
    expect(requests.map((r) => r.line)).toContain('GET /api/schedule?date=2026-11-22');
  });

  it('opens a started booking and marks it a no-show', async () => {
    const user = await openSchedule();
    await user.click(screen.getByRole('button', { name: /09:00–10:00 Pat Patient/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Pat Patient: Orthodontic Consultation' });
    expect(within(dialog).getByText('pat@example.com').getAttribute('href')).toBe('mailto:pat@example.com');
    // The patient's family, the account holder who books for them marked.
    expect(within(dialog).getByText('Family').nextElementSibling?.textContent).toBe(
      'Paula Patient (books for them), Pip Patient',
    );
    expect(within(dialog).queryByRole('button', { name: 'Mark attended' })).not.toBeNull();
    const loadsBefore = requests.filter((r) => r.line === 'GET /api/schedule?date=2026-11-21').length;
    await user.click(within(dialog).getByRole('button', { name: 'Mark no-show' }));
    expect(await findToast('Done at the desk')).toBe('success');
    expect(posts()).toEqual([
      { line: 'POST /api/bookings/b-started/attendance', body: '{"status":"no_show","version":1}' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(requests.filter((r) => r.line === 'GET /api/schedule?date=2026-11-21').length).toBeGreaterThan(
        loadsBefore,
      ),
    );
  });

  it('marks a no-show waiving the fee its patient accepted, and waives a fee already charged', async () => {
    const [started] = DAY.bookings as [ScheduleEntry];
    const before = { ...started };
    try {
      Object.assign(started, { noShowFee: 40 });
      const user = await openSchedule();
      await user.click(screen.getByRole('button', { name: /09:00–10:00 Pat Patient/ }));
      let dialog = await screen.findByRole('dialog', { name: 'Pat Patient: Orthodontic Consultation' });
      // What the patient's account owes, from their statement.
      expect((await within(dialog).findByText('Account balance')).nextElementSibling?.textContent).toBe(
        '$120 to pay at the clinic',
      );
      await user.click(within(dialog).getByLabelText('Waive the $40 missed-appointment fee'));
      await user.click(within(dialog).getByRole('button', { name: 'Mark no-show' }));
      expect(await findToast('Done at the desk')).toBe('success');
      expect(posts().at(-1)).toEqual({
        line: 'POST /api/bookings/b-started/attendance',
        body: '{"status":"no_show","version":1,"waiveFee":true}',
      });
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

      Object.assign(started, {
        status: 'no_show',
        fee: { _id: 'fee-1', kind: 'no_show', amount: 40, status: 'charged' },
      });
      await user.click(screen.getByRole('button', { name: 'Next day' }));
      await user.click(screen.getByRole('button', { name: 'Previous day' }));
      await user.click(await screen.findByRole('button', { name: /09:00–10:00 Pat Patient/ }));
      dialog = await screen.findByRole('dialog', { name: 'Pat Patient: Orthodontic Consultation' });
      expect(within(dialog).getByText('Missed-appointment fee').nextElementSibling?.textContent).toContain(
        '$40, charged to the card on file',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Waive fee' }));
      expect(await findToast('Done at the desk')).toBe('success');
      expect(posts().at(-1)).toEqual({ line: 'POST /api/fees/fee-1/waive', body: '' });
    } finally {
      Object.assign(started, before);
    }
  });

  it('offline, shows the day kept on this device “as of” and keeps a mark in the outbox with the visit’s version', async () => {
    const { unmount } = renderWithProviders(<AppRoutes />, { path: '/dashboard/schedule' });
    await screen.findByRole('list', { name: 'Dr. Hiro Tanaka' });
    unmount();
    offline = true;
    storeSession('admin@clinic.test', accessTokenFor('admin@clinic.test', { role: 'admin' }));
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: `/dashboard/schedule?date=${DAY.date}` });
    expect((await screen.findByText(/^Offline: the schedule as of /)).textContent).toBe(
      'Offline: the schedule as of Nov 21, 10:00 AM.',
    );
    await user.click(screen.getByRole('button', { name: /09:00–10:00 Pat Patient/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Pat Patient: Orthodontic Consultation' });
    expect(within(dialog).queryByRole('button', { name: 'Reschedule' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Cancel for patient' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Mark attended' }));
    expect(
      await findToast('Saved on this device: Pat Patient will be marked as attended when the connection is back.'),
    ).toBe('success');
    const waiting = await screen.findByRole('region', { name: 'On this device' });
    expect(waiting.textContent).toContain('Pat Patient marked as attended');
    const [entry] = await sharedOutbox().entries();
    expect(entry).toMatchObject({
      path: '/bookings/b-started/attendance',
      body: '{"status":"attended","version":1}',
      state: 'queued',
    });
  });

  it('a day that is not kept says so offline', async () => {
    offline = true;
    storeSession('admin@clinic.test', accessTokenFor('admin@clinic.test', { role: 'admin' }));
    renderWithProviders(<AppRoutes />, { path: '/dashboard/schedule?date=2026-12-10' });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'You are offline, and this day is not kept on this device: only today and the next 2 days are',
    );
    expect((screen.getByLabelText('Day', { exact: true }) as HTMLInputElement).value).toBe('2026-12-10');
  });

  it('cancels an upcoming booking for the patient with the reason they will see; attendance waits for the start', async () => {
    const user = await openSchedule();
    await user.click(screen.getByRole('button', { name: /14:00–14:30 Sam Later/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Sam Later: Teeth Cleaning' });
    expect(within(dialog).getByText('Attendance can be marked once the appointment has started.')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Mark attended' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel for patient' }));
    const submit = within(dialog).getByRole('button', { name: 'Cancel booking' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('Reason the patient will see'), 'Dr. Alvarez is ill');
    await user.click(submit);
    expect(await findToast('Done at the desk')).toBe('success');
    expect(posts()).toEqual([{ line: 'POST /api/bookings/b-later/cancel', body: '{"reason":"Dr. Alvarez is ill"}' }]);
  });

  it('cancels a paid booking with its refund unless the front desk unticks it, and says what became of the money', async () => {
    const user = await openSchedule();
    const cancel = async (refund: boolean) => {
      await user.click(screen.getByRole('button', { name: /09:00–10:00 Pat Patient/ }));
      const dialog = await screen.findByRole('dialog', { name: 'Pat Patient: Orthodontic Consultation' });
      await user.click(within(dialog).getByRole('button', { name: 'Cancel for patient' }));
      const box = within(dialog).getByRole('checkbox', { name: 'Refund the payment ($120)' }) as HTMLInputElement;
      expect(box.checked).toBe(true);
      if (!refund) await user.click(box);
      await user.type(within(dialog).getByLabelText('Reason the patient will see'), 'Flooded');
      await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    };
    await cancel(true);
    expect(await findToast('Booking cancelled; the payment was refunded')).toBe('success');
    await cancel(false);
    expect(await findToast('Done at the desk')).toBe('success');
    expect(posts().map((p) => [p.line, JSON.parse(p.body)])).toEqual([
      ['POST /api/bookings/b-started/cancel', { reason: 'Flooded', refund: true }],
      ['POST /api/bookings/b-started/cancel', { reason: 'Flooded', refund: false }],
    ]);
  });

  it('books by phone for a patient found by name in four steps, their phone filled in, paid at the clinic', async () => {
    const user = await openSchedule();
    await user.click(screen.getByRole('button', { name: 'Book by phone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Book by phone' });
    const book = within(dialog).getByRole('button', { name: 'Book' }) as HTMLButtonElement;
    expect(book.disabled).toBe(true);
    // Book says what it still needs.
    expect(within(dialog).getByText('Find the caller and choose them in the list.').id).toBe(
      book.getAttribute('aria-describedby'),
    );
    await user.type(within(dialog).getByLabelText('Find by name or email'), 'pat'); // 1
    await user.click(await within(dialog).findByRole('radio', { name: /Pat Patient/ })); // 2
    expect((within(dialog).getByLabelText('Phone Number') as HTMLInputElement).value).toBe('555 0100');
    await within(dialog).findByRole('option', { name: '02.30 PM - 03.00 PM' });
    await user.selectOptions(within(dialog).getByLabelText('Time'), '03.00 PM - 03.30 PM'); // 3
    expect(book.disabled).toBe(false);
    await user.click(book); // 4
    expect(await findToast('Done at the desk')).toBe('success');
    expect(screen.getByText('To pay at the clinic: the time is kept.')).toBeTruthy();
    expect(posts().map((p) => [p.line, JSON.parse(p.body)])).toEqual([
      [
        'POST /api/phone-bookings',
        {
          patientId: 'u-pat',
          phone: '555 0100',
          treatment: 'Teeth Cleaning',
          appointmentDate: '2026-11-21',
          start: '15:00',
          payment: 'clinic',
        },
      ],
    ]);
  });

  it('books a caller’s family visit by phone: their family on the card, the starts where all fit, paid at the clinic', async () => {
    const user = await openSchedule();
    await user.click(screen.getByRole('button', { name: 'Book by phone' }));
    const phoneDialog = within(await screen.findByRole('dialog', { name: 'Book by phone' }));
    await user.type(phoneDialog.getByLabelText('Find by name or email'), 'fam');
    await user.click(await phoneDialog.findByRole('radio', { name: /Fay Family/ }));
    expect(phoneDialog.getByText('Family: Finn Family')).toBeTruthy();
    await phoneDialog.findByRole('option', { name: '02.30 PM - 03.00 PM' });
    await user.click(phoneDialog.getByRole('button', { name: 'Book a family visit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Family visit on Nov 21, 2026' }));
    await user.selectOptions(dialog.getByLabelText('Fay Family'), 'Teeth Cleaning');
    await user.selectOptions(dialog.getByLabelText('Finn Family'), 'Teeth Cleaning');
    await user.click(dialog.getByRole('radio', { name: 'One after another' }));
    await dialog.findByRole('option', { name: '02.30 PM - 03.30 PM' });
    expect(familyQueries.at(-1)).toContain('accountId=u-fay');
    await user.click(dialog.getByRole('button', { name: 'Book the family visit' }));
    expect(await findToast('Done at the desk')).toBe('success');
    expect(posts().map((p) => [p.line, JSON.parse(p.body)])).toEqual([
      [
        'POST /api/phone-bookings/family',
        {
          appointmentDate: '2026-11-21',
          start: '14:30',
          arrangement: 'back-to-back',
          members: [
            { patientId: 'u-fay', treatment: 'teeth-cleaning' },
            { patientId: 'd-finn', treatment: 'teeth-cleaning' },
          ],
          accountId: 'u-fay',
          phone: '555 0199',
          payment: 'clinic',
        },
      ],
    ]);
  });

  it('books by phone the doctor the caller asks for, online by a deadline, past the unpaid limit with a reason', async () => {
    const user = await openSchedule();
    await user.click(screen.getByRole('button', { name: 'Book by phone' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Book by phone' }));
    await user.type(dialog.getByLabelText('Find by name or email'), 'pat');
    await user.click(await dialog.findByRole('radio', { name: /Pat Patient/ }));
    // Only the doctors of the treatment's specialty.
    await dialog.findByRole('option', { name: 'Dr. Sofia Alvarez' });
    expect(dialog.queryByRole('option', { name: 'Dr. Hiro Tanaka' })).toBeNull();
    await user.selectOptions(dialog.getByLabelText('Doctor'), 'Dr. Sofia Alvarez');
    await user.click(dialog.getByRole('radio', { name: 'Online, by a deadline (or the time is released)' }));
    await user.type(dialog.getByLabelText('Reason to go past their unpaid limit (only if needed)'), 'Pays monthly');
    await dialog.findByRole('option', { name: '02.30 PM - 03.00 PM' });
    await user.click(dialog.getByRole('button', { name: 'Book' }));
    await findToast('Done at the desk');
    expect(JSON.parse(posts()[0]?.body ?? '{}')).toMatchObject({
      doctorId: 'dr-sofia',
      payment: 'online',
      limitReason: 'Pays monthly',
    });
  });

  it('books by phone for a new patient with their name, email and language', async () => {
    const user = await openSchedule();
    await user.click(screen.getByRole('button', { name: 'Book by phone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Book by phone' });
    await user.click(within(dialog).getByRole('radio', { name: 'New patient' }));
    await user.type(within(dialog).getByLabelText('Name'), 'Nora Newcomer');
    await user.type(within(dialog).getByLabelText('Email (if they have one)'), 'nora@example.com');
    await user.selectOptions(within(dialog).getByLabelText('Language of their mails and texts'), 'Español');
    await user.type(within(dialog).getByLabelText('Phone Number'), '555 0142');
    await within(dialog).findByRole('option', { name: '02.30 PM - 03.00 PM' });
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    await findToast('Done at the desk');
    expect(JSON.parse(posts()[0]?.body ?? '{}')).toEqual({
      patient: { name: 'Nora Newcomer', email: 'nora@example.com', language: 'es' },
      phone: '555 0142',
      treatment: 'Teeth Cleaning',
      appointmentDate: '2026-11-21',
      start: '14:30',
      payment: 'clinic',
    });
  });

  it('books by phone a new patient who has no email: a name and a phone are enough', async () => {
    const user = await openSchedule();
    await user.click(screen.getByRole('button', { name: 'Book by phone' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Book by phone' }));
    await user.click(dialog.getByRole('radio', { name: 'New patient' }));
    expect(dialog.getByText('Enter the new patient’s name.')).toBeTruthy();
    await user.type(dialog.getByLabelText('Name'), 'Walter Walkin');
    expect(dialog.getByText('Enter a phone number to reach the patient.')).toBeTruthy();
    await user.type(dialog.getByLabelText('Phone Number'), '555 0177');
    await dialog.findByRole('option', { name: '02.30 PM - 03.00 PM' });
    await user.click(dialog.getByRole('button', { name: 'Book' }));
    await findToast('Done at the desk');
    expect(JSON.parse(posts()[0]?.body ?? '{}')).toMatchObject({ patient: { name: 'Walter Walkin' } });
  });

  it('lists the bookings waiting for review, whatever their day; one is kept as it is, or paid at the desk', async () => {
    review = [entry('b-review', { patientName: 'Rita Review', needsReview: true, paid: false, payment: 'clinic' })];
    const user = await openSchedule();
    const list = within(await screen.findByRole('region', { name: 'Needs review (1)' }));
    await user.click(list.getByRole('button', { name: 'Nov 24, 2026, 09:00: Rita Review' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Rita Review: Orthodontic Consultation' }));
    expect(dialog.getByText('$120, unpaid: pays at the clinic')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'In cash' }));
    expect(await findToast('Done at the desk')).toBe('success');
    await user.click(list.getByRole('button', { name: 'Nov 24, 2026, 09:00: Rita Review' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Rita Review: Orthodontic Consultation' })).getByRole('button', {
        name: 'Keep as it is',
      }),
    );
    await findToast('Done at the desk');
    expect(posts().map((p) => [p.line, p.body ? JSON.parse(p.body) : null])).toEqual([
      ['POST /api/bookings/b-review/desk-payment', { method: 'cash' }],
      ['POST /api/bookings/b-review/keep', null],
    ]);
  });
});
