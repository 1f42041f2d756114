import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WaitlistEntry } from '../../../../../contract/messages.ts';
import { AppRoutes } from '../../../app/routes.tsx';
import { english, formatsOf } from '../../../lib/i18n.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import {
  aBooking,
  describeRequest,
  findToast,
  json,
  renderWithProviders,
  storeSession,
  stubFetch,
} from '../../../testing/test-utils.tsx';
import type { PastBooking } from '../api/booking-history.ts';
import type { Booking } from '../api/get-my-bookings.ts';
import { saveBookings } from '../api/saved-bookings.ts';
import { offlineNoteText } from './my-appointments-page.tsx';

const NOW = new Date('2026-11-21T15:00:00Z');
const EMAIL = 'patient@clinic.test';

function booking(id: string, fields: Partial<Booking>): Booking {
  return aBooking({ _id: id, email: EMAIL, ...fields });
}

let bookings: Booking[];
let requests: { line: string; authorization: string | null }[];
let answerList: () => Response | Promise<Response>;
let online: boolean;
let answerDelete: (id: string) => Response;
let answerCalendar: (request: Request) => Response;
let answerMove: (id: string, request: Request) => Response | Promise<Response>;
const FREE_TIMES = ['11.00 AM - 11.30 AM', '01.00 PM - 01.30 PM'];
let waitlist: WaitlistEntry[];
let remindersOn: boolean;
let language: string;
let sms: { phone: string | null; smsConsent: boolean; stopped: boolean };
let family: { _id: string; name: string; birthDate: string; relationship: string }[];
let freeCancellationHours: number;
let cutoffHours: number;
let history: PastBooking[];
let historyPages: number;

const HOUR = 3_600_000;
/** A booking as the server answers it: its deadlines under the clinic's policy of the moment. */
const withDeadlines = (b: Booking): Booking => ({
  ...b,
  freeCancellationUntil: new Date(Date.parse(b.startsAt) - freeCancellationHours * HOUR).toISOString(),
  rescheduleUntil: new Date(Date.parse(b.startsAt) - cutoffHours * HOUR).toISOString(),
});

beforeEach(() => {
  online = true;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  bookings = [
    booking('b-unpaid', { payBy: '2026-11-22T20:00:00.000Z' }),
    booking('b-paid', {
      treatment: 'Cavity Filling',
      treatmentId: 'cavity-filling',
      appointmentDate: 'Nov 26, 2026',
      date: '2026-11-26',
      startsAt: '2026-11-26T14:30:00.000Z',
      slot: '09.30 AM - 10.30 AM',
      price: 150,
      paid: true,
      durationMinutes: 60,
      doctor: { _id: 'dr-ben-ito', name: 'Dr. Ben Ito', image: '/api/images/doctors/ben.png' },
    }),
    booking('b-started', {
      treatment: 'Teeth Whitening',
      appointmentDate: 'Nov 21, 2026',
      date: '2026-11-21',
      startsAt: '2026-11-21T14:00:00.000Z',
      slot: '09.00 AM - 09.30 AM',
      price: 250,
    }),
    booking('b-free', {
      treatment: 'Dental Check-up',
      appointmentDate: 'Nov 27, 2026',
      date: '2026-11-27',
      startsAt: '2026-11-27T15:00:00.000Z',
      slot: '10.00 AM - 10.30 AM',
      price: 0,
    }),
  ];
  requests = [];
  cutoffHours = 24;
  answerMove = () => json({ acknowledged: true, insertedId: 'b-moved', message: 'Moved' });
  waitlist = [];
  remindersOn = true;
  language = 'en';
  sms = { phone: null, smsConsent: false, stopped: true };
  family = [];
  freeCancellationHours = 24;
  history = [];
  historyPages = 1;
  answerList = () => json(bookings.map(withDeadlines));
  answerDelete = (id) => {
    bookings = bookings.filter((b) => b._id !== id);
    return json({ acknowledged: true, modifiedCount: 1, message: 'Booking cancelled' });
  };
  answerCalendar = () =>
    new Response('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', {
      headers: { 'Content-Type': 'text/calendar; charset=utf-8' },
    });
  stubFetch((request) => {
    const url = new URL(request.url);
    requests.push({ line: describeRequest(request), authorization: request.headers.get('Authorization') });
    if (url.pathname.startsWith('/api/users/admin/')) return json({ isAdmin: false });
    if (url.pathname === '/api/bookings' && request.method === 'GET') return answerList();
    if (url.pathname === '/api/bookings/history') {
      const page = Number(url.searchParams.get('page'));
      return json({
        bookings: history.slice((page - 1) * 2, historyPages > 1 ? page * 2 : undefined),
        nextPage: page < historyPages ? page + 1 : null,
      });
    }
    const calendar = url.pathname.match(/^\/api\/bookings\/([^/]+)\/calendar\.ics$/);
    if (calendar && request.method === 'GET') return answerCalendar(request);
    if (url.pathname.startsWith('/api/bookings/') && request.method === 'DELETE') {
      return answerDelete(decodeURIComponent(url.pathname.split('/').pop()!));
    }
    if (url.pathname === '/api/jwt') return json({ accessToken: 'renewed-token' });
    if (url.pathname === '/api/appointmentOptions') {
      return json([
        {
          _id: 'cavity-filling',
          name: 'Cavity Filling',
          slots: FREE_TIMES,
          starts: ['11:00', '13:00'],
          price: 150,
          durationMinutes: 30,
        },
      ]);
    }
    const move = url.pathname.match(/^\/api\/bookings\/([^/]+)\/reschedule$/);
    if (move && request.method === 'POST') return answerMove(decodeURIComponent(move[1]!), request);
    if (url.pathname === '/api/waitlist') return json(waitlist);
    if (url.pathname.startsWith('/api/waitlist/') && request.method === 'DELETE') {
      waitlist = waitlist.filter((entry) => !url.pathname.endsWith(entry._id));
      return json({ acknowledged: true, deletedCount: 1 });
    }
    if (url.pathname === '/api/users/me/reminders' && request.method === 'PUT') {
      return request.json().then((body: { remindersOn: boolean }) => {
        remindersOn = body.remindersOn;
        return json({ acknowledged: true, remindersOn });
      });
    }
    if (url.pathname === '/api/users/me/reminders') return json({ remindersOn });
    if (url.pathname === '/api/users/me/language' && request.method === 'PUT') {
      return request.json().then((body: { language: string }) => {
        language = body.language;
        return json({ language });
      });
    }
    if (url.pathname === '/api/users/me/language') return json({ language });
    if (url.pathname === '/api/users/me/sms' && request.method === 'PUT') {
      return request.json().then((body: { phone: string | null; smsConsent: boolean }) => {
        if (body.phone === '555') {
          return json(
            {
              acknowledged: false,
              message: 'phone must be a mobile number with its country code, like +1 555 010 2026',
            },
            400,
          );
        }
        sms = { phone: body.phone?.replace(/[\s().-]/g, '') ?? null, smsConsent: body.smsConsent, stopped: false };
        return json(sms);
      });
    }
    if (url.pathname === '/api/users/me/sms') return json(sms);
    if (url.pathname === '/api/users/me/cards') return json([]);
    if (url.pathname === '/api/users/me/statement') return json({ people: [], balance: 0, fees: [] });
    if (url.pathname === '/api/users/me/dependants' && request.method === 'POST') {
      return request.json().then((body: { name: string; birthDate: string; relationship: string }) => {
        family = [...family, { _id: `d${family.length + 1}`, ...body }];
        return json({ acknowledged: true, insertedId: `d${family.length}` }, 201);
      });
    }
    if (url.pathname === '/api/users/me/dependants') return json(family);
    if (url.pathname === '/api/users/me/dependants/d2/invite' && request.method === 'POST') {
      return request.json().then((body: { email: string }) =>
        json({
          acknowledged: true,
          message: `Nana Patient is invited: once they sign up with ${body.email} and verify it, their record is theirs`,
        }),
      );
    }
    if (url.pathname === '/api/clinic/policy')
      return json({
        freeCancellationHours,
        rescheduleCutoffHours: cutoffHours,
        unpaidHoldHours: 24,
        unpaidHoldHoursBeforeStart: 12,
      });
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs(EMAIL, 'Jamie Patient');
  storeSession(EMAIL);
});

afterEach(() => {
  vi.useRealTimers();
});

async function openMyAppointments() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/dashboard' });
  await screen.findByRole('heading', { level: 1, name: 'My Appointments' });
  return user;
}

const table = () => screen.findByRole('table', { name: 'My appointments' });
const row = (text: string) => within(screen.getAllByRole('row').find((r) => r.textContent?.includes(text))!);
const lines = (prefix: string) => requests.map((r) => r.line).filter((line) => line.startsWith(prefix));
const listRequests = () => lines(`GET /api/bookings?email=${encodeURIComponent(EMAIL)}`).length;

describe('My Appointments', () => {
  it("lists the patient's upcoming bookings: #, Appointment (what, when, how long), Doctor, Price, Payment and Status", async () => {
    await openMyAppointments();
    const list = await table();
    expect(
      within(list)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['#', 'Appointment', 'Doctor', 'Price', 'Payment', 'Status', 'Actions']);
    const [, ...body] = within(list).getAllByRole('row');
    expect(body.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['1', '2', '3']);
    expect(
      body.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent)
          .slice(0, 3),
      ),
    ).toEqual([
      ['Teeth CleaningNov 25, 202609.00 AM - 09.30 AM30 min', 'To be confirmed', '$80'],
      ['Cavity FillingNov 26, 202609.30 AM - 10.30 AM60 min', 'Dr. Ben Ito', '$150'],
      ['Dental Check-upNov 27, 202610.00 AM - 10.30 AM30 min', 'To be confirmed', '$0'],
    ]);
    // The visit that is over (Nov 21, 9.00 AM) is history, not upcoming.
    expect(within(list).queryByText('Teeth Whitening')).toBeNull();
    expect(lines('GET /api/bookings?')).toEqual([`GET /api/bookings?email=${encodeURIComponent(EMAIL)}`]);
  });

  it('says on each row until when it can be cancelled free and rescheduled online', async () => {
    freeCancellationHours = 48;
    cutoffHours = 12;
    await openMyAppointments();
    await table();
    expect(
      row('Cavity Filling').getByText(
        'Free cancellation until Nov 24, 9:30 AM; reschedule online until Nov 25, 9:30 PM.',
      ),
    ).toBeTruthy();
  });

  it("shows each booking's length under its time, and its doctor's photo beside their name", async () => {
    await openMyAppointments();
    await table();
    const length = row('Cavity Filling').getByText('60 min');
    expect(length.tagName).toBe('SMALL');
    const doctor = row('Cavity Filling').getByText('Dr. Ben Ito');
    expect(doctor.querySelector('img')?.getAttribute('src')).toBe('/api/images/doctors/ben.png');
    expect(row('Teeth Cleaning').getByText('To be confirmed')).toBeTruthy();
  });

  it('shows a Pay link for an unpaid booking with a price and a Paid label for a paid one', async () => {
    await openMyAppointments();
    await table();
    const pay = row('Teeth Cleaning').getByRole('link', { name: 'Pay' });
    expect(pay.getAttribute('href')).toBe('/dashboard/payment/b-unpaid');
    expect(row('Teeth Cleaning').queryByText('Paid')).toBeNull();

    expect(row('Cavity Filling').getByText('Paid')).toBeTruthy();
    expect(row('Cavity Filling').queryByRole('link', { name: 'Pay' })).toBeNull();
    expect(
      row('Cavity Filling')
        .getByRole('link', { name: 'Receipt for Cavity Filling on Nov 26, 2026' })
        .getAttribute('href'),
    ).toBe('/dashboard/receipt/b-paid');
    expect(row('Teeth Cleaning').queryByRole('link', { name: /^Receipt/ })).toBeNull();

    expect(row('Dental Check-up').queryByRole('link', { name: 'Pay' })).toBeNull();
    expect(row('Dental Check-up').queryByText('Paid')).toBeNull();
  });

  it('says until when an unpaid booking is held, on the clinic’s clock, in small print under Pay', async () => {
    await openMyAppointments();
    await table();
    const payBy = row('Teeth Cleaning').getByText('Pay by Nov 22, 3:00 PM');
    expect(payBy.tagName).toBe('SMALL');
    expect(row('Cavity Filling').queryByText(/^Pay by/)).toBeNull();
    expect(row('Dental Check-up').queryByText(/^Pay by/)).toBeNull();
  });

  it('offers Cancel for bookings that have not started, a paid one outside the clinic’s cancellation window', async () => {
    await openMyAppointments();
    await table();
    expect(row('Teeth Cleaning').getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(row('Dental Check-up').getByRole('button', { name: 'Cancel' })).toBeTruthy();
    // Paid, 5 days ahead, the policy is 24 hours.
    expect(await row('Cavity Filling').findByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(lines('GET /api/clinic/policy')).toEqual(['GET /api/clinic/policy']);
  });

  it('inside the window, says to call the clinic instead of offering Cancel for a paid booking', async () => {
    freeCancellationHours = 7 * 24;
    await openMyAppointments();
    await table();
    const note = await row('Cavity Filling').findByText(/^To cancel, call the clinic/);
    expect(note.textContent).toBe('To cancel, call the clinic: +1 (555) 010-2026');
    expect(within(note).getByRole('link').getAttribute('href')).toBe('tel:+15550102026');
    expect(row('Cavity Filling').queryByRole('button', { name: 'Cancel' })).toBeNull();
    // An unpaid booking is cancelled online whatever the window.
    expect(row('Teeth Cleaning').getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('cancels a paid booking with a full refund, says where the refund stands and links its receipt', async () => {
    answerDelete = (id) => {
      bookings = bookings.filter((b) => b._id !== id);
      return json({
        acknowledged: true,
        modifiedCount: 1,
        message: 'Booking cancelled',
        refund: { status: 'succeeded', amount: 150, currency: 'usd' },
      });
    };
    const user = await openMyAppointments();
    await table();
    await user.click(await row('Cavity Filling').findByRole('button', { name: 'Cancel' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this appointment?' });
    expect(dialog.textContent).toContain('The $150 you paid will be refunded to your card.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel appointment' }));

    expect(await findToast('Booking cancelled')).toBe('success');
    const notice = screen.getByText(/is cancelled/).closest('[role="status"]')!;
    expect(notice.textContent).toContain(
      'Your Cavity Filling appointment on Nov 26, 2026 is cancelled. $150.00 has been refunded to your card.',
    );
    expect(
      within(notice as HTMLElement)
        .getByRole('link', { name: 'View receipt' })
        .getAttribute('href'),
    ).toBe('/dashboard/receipt/b-paid');
    expect(lines('DELETE')).toEqual(['DELETE /api/bookings/b-paid']);
  });

  it('asks before cancelling and cancels nothing on Keep it', async () => {
    const user = await openMyAppointments();
    await table();
    const opener = row('Teeth Cleaning').getByRole('button', { name: 'Cancel' });
    await user.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Cancel this appointment?' });
    expect(dialog.textContent).toContain('Teeth Cleaning');
    expect(dialog.textContent).toContain('Nov 25, 2026');
    expect(dialog.textContent).toContain('09.00 AM - 09.30 AM');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(lines('DELETE')).toEqual([]);
  });

  it('cancels after confirmation: DELETE, "Booking cancelled", list refetched without it', async () => {
    const user = await openMyAppointments();
    await table();
    expect(listRequests()).toBe(1);
    await user.click(row('Teeth Cleaning').getByRole('button', { name: 'Cancel' }));
    expect(lines('DELETE')).toEqual([]);
    await user.click(
      within(screen.getByRole('dialog', { name: 'Cancel this appointment?' })).getByRole('button', {
        name: 'Cancel appointment',
      }),
    );

    expect(await findToast('Booking cancelled')).toBe('success');
    expect(lines('DELETE')).toEqual(['DELETE /api/bookings/b-unpaid']);
    await waitFor(() => expect(screen.queryByText('Teeth Cleaning')).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(listRequests()).toBe(2);
  });

  it("shows the server's message in an error toast when cancelling is refused", async () => {
    answerDelete = () => json({ acknowledged: false, message: 'This appointment has already started' }, 409);
    const user = await openMyAppointments();
    await table();
    await user.click(row('Teeth Cleaning').getByRole('button', { name: 'Cancel' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel appointment' }));

    expect(await findToast('This appointment has already started')).toBe('error');
    expect(screen.queryByText('Booking cancelled')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(row('Teeth Cleaning').getByText('Nov 25, 2026')).toBeTruthy();
  });

  it('downloads a booking as appointment-{date}.ics, fetched with the access token', async () => {
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:calendar');
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    const user = await openMyAppointments();
    await table();
    await user.click(row('Teeth Cleaning').getByRole('button', { name: 'Add to calendar' }));

    await waitFor(() => expect(saved).toEqual([{ href: 'blob:calendar', download: 'appointment-2026-11-25.ics' }]));
    const calendar = requests.filter((r) => r.line.endsWith('/calendar.ics'));
    expect(calendar).toEqual([
      { line: 'GET /api/bookings/b-unpaid/calendar.ics', authorization: `Bearer access:${EMAIL}` },
    ]);
    const file = createObjectURL.mock.calls[0]![0] as Blob;
    expect(await file.text()).toContain('BEGIN:VCALENDAR');
  });

  it('renews an expired access token once when downloading the calendar', async () => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:calendar');
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    answerCalendar = (request) =>
      request.headers.get('Authorization') === 'Bearer renewed-token'
        ? new Response('BEGIN:VCALENDAR\r\n', { headers: { 'Content-Type': 'text/calendar' } })
        : json({ message: 'Your session has expired' }, 401);
    const user = await openMyAppointments();
    await table();
    await user.click(row('Cavity Filling').getByRole('button', { name: 'Add to calendar' }));

    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(requests.filter((r) => r.line.endsWith('/calendar.ics')).map((r) => r.authorization)).toEqual([
      `Bearer access:${EMAIL}`,
      'Bearer renewed-token',
    ]);
  });

  it("shows the server's message when the calendar cannot be downloaded", async () => {
    answerCalendar = () => json({ message: 'This booking is not yours' }, 403);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    const user = await openMyAppointments();
    await table();
    await user.click(row('Teeth Cleaning').getByRole('button', { name: 'Add to calendar' }));
    expect(await findToast('This booking is not yours')).toBe('error');
    expect(click).not.toHaveBeenCalled();
  });

  it('has a clear empty state that leads to booking', async () => {
    bookings = [];
    await openMyAppointments();
    expect(await screen.findByText('You have no appointments yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Book an appointment' }).getAttribute('href')).toBe('/appointment');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a readable message on the page when the bookings cannot be loaded', async () => {
    answerList = () => json({ message: 'The bookings are unavailable right now' }, 503);
    await openMyAppointments();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The bookings are unavailable right now');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('lists the waitlist with the offer held for the patient, and leaves it on Leave', async () => {
    waitlist = [
      {
        _id: 'w1',
        treatmentId: 'root-canal',
        treatment: 'Root Canal',
        from: '2026-11-30',
        to: '2026-12-02',
        createdAt: '2026-11-20T12:00:00.000Z',
        offer: {
          _id: 'o1',
          date: '2026-12-01',
          appointmentDate: 'Dec 1, 2026',
          slot: '09.00 AM - 10.30 AM',
          expiresAt: '2026-11-21T15:30:00.000Z',
        },
      },
    ];
    const user = await openMyAppointments();
    const section = within(await screen.findByRole('region', { name: 'My waitlist' }));
    expect(await section.findByText('Root Canal on Nov 30, 2026 to Dec 2, 2026')).toBeTruthy();
    expect(
      section
        .getByRole('link', { name: 'A time is held for you: Dec 1, 2026, 09.00 AM - 10.30 AM' })
        .getAttribute('href'),
    ).toBe('/offers/o1');
    await user.click(
      section.getByRole('button', { name: 'Leave the waitlist for Root Canal on Nov 30, 2026 to Dec 2, 2026' }),
    );
    expect(await findToast('You left the waitlist')).toBeTruthy();
    expect(lines('DELETE /api/waitlist/w1')).toHaveLength(1);
    expect(await section.findByText(/You are not waiting for any time/)).toBeTruthy();
  });

  it('shows the reminder setting and the waitlist under the list once the list is there, loading them meanwhile', async () => {
    let release = () => {};
    answerList = () => new Promise<Response>((resolve) => (release = () => resolve(json(bookings))));
    await openMyAppointments();
    expect(await screen.findByText('Loading your appointments')).toBeTruthy();
    await waitFor(() => expect(lines('GET /api/waitlist')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'My waitlist' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Email me a reminder the day before each appointment' })).toBeNull();

    act(() => release());
    await table();
    expect(await screen.findByRole('region', { name: 'My waitlist' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Email me a reminder the day before each appointment' })).toBeTruthy();
  });

  it('turns reminders off on the server, and says so', async () => {
    const user = await openMyAppointments();
    const toggle = await screen.findByRole('checkbox', { name: 'Email me a reminder the day before each appointment' });
    await waitFor(() => expect((toggle as HTMLInputElement).disabled).toBe(false));
    expect((toggle as HTMLInputElement).checked).toBe(true);
    await user.click(toggle);
    expect(await findToast('Reminders are off')).toBeTruthy();
    expect(remindersOn).toBe(false);
    expect((toggle as HTMLInputElement).checked).toBe(false);
  });

  it('turns to the language chosen in the menu, keeps it on the device and sets the account’s to it', async () => {
    const user = await openMyAppointments();
    const [chooser] = screen.getAllByRole('combobox', { name: 'Language' }) as HTMLSelectElement[];
    expect(chooser?.value).toBe('en');
    expect([...(chooser?.options ?? [])].map((option) => option.text)).toEqual(['English', 'Español', 'Français']);
    await user.selectOptions(chooser as HTMLSelectElement, 'Español');
    expect(await screen.findByRole('heading', { level: 1, name: 'Mis citas' })).toBeTruthy();
    expect(await screen.findByRole('table', { name: 'Mis citas' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('es');
    expect(localStorage.getItem('clinic.language')).toBe('es');
    expect(document.cookie).toContain('clinic_language=es');
    // Its mails and texts follow: the account's language is set on the server.
    await waitFor(() => expect(language).toBe('es'));
    expect(screen.getAllByRole('combobox', { name: 'Idioma' })[0]).toHaveProperty('value', 'es');
  });

  it('takes a mobile number and consent to texts, saying what the server refused', async () => {
    const user = await openMyAppointments();
    const texts = within(await screen.findByRole('form', { name: 'Texts' }));
    expect(await texts.findByText(/^You replied STOP, so no texts are sent/)).toBeTruthy();
    const number = texts.getByLabelText('Mobile number');
    await waitFor(() => expect((number as HTMLInputElement).disabled).toBe(false));
    await user.type(number, '555');
    await user.click(texts.getByRole('checkbox', { name: /^Text me reminders/ }));
    await user.click(texts.getByRole('button', { name: 'Save texts' }));
    expect((await texts.findByRole('alert')).textContent).toBe(
      'phone must be a mobile number with its country code, like +1 555 010 2026',
    );
    await user.clear(number);
    await user.type(number, '+1 555 010 2026');
    await user.click(texts.getByRole('button', { name: 'Save texts' }));
    expect(await findToast('Texts go to +15550102026')).toBe('success');
    expect(sms).toEqual({ phone: '+15550102026', smsConsent: true, stopped: false });
    expect(texts.queryByText(/^You replied STOP/)).toBeNull();
  });

  it('lists the family’s bookings by person, and adds a person to the family', async () => {
    family = [{ _id: 'd1', name: 'Milo Patient', birthDate: '2016-04-02', relationship: 'child' }];
    const first = bookings[0] as Booking;
    bookings = [...bookings, { ...first, _id: 'b-milo', patientName: 'Milo Patient', patient: 'Milo Patient' }];
    const user = await openMyAppointments();
    const milo = await screen.findByRole('table', { name: 'Milo Patient’s appointments' });
    expect(within(milo).getAllByRole('row')).toHaveLength(2);
    expect(within(await table()).queryByText('Milo Patient')).toBeNull();

    const form = within(screen.getByRole('form', { name: 'Add a person' }));
    await user.type(form.getByLabelText('Their name'), 'Nana Patient');
    await user.type(form.getByLabelText('Date of birth'), '1950-02-03');
    await user.selectOptions(form.getByLabelText('Who they are to you'), 'Parent');
    await user.click(form.getByRole('button', { name: 'Add to my family' }));
    expect(await findToast('Nana Patient added to your family')).toBe('success');
    expect(family.at(-1)).toEqual({ _id: 'd2', name: 'Nana Patient', birthDate: '1950-02-03', relationship: 'parent' });
    expect(await screen.findByText(/Parent, born Feb 3, 1950/)).toBeTruthy();
    // An adult may have their own account; a child may not yet.
    expect(screen.getAllByText('Their own account')).toHaveLength(1);
    await user.click(screen.getByText('Their own account'));
    const invite = within(screen.getByRole('form', { name: 'Invite Nana Patient to their own account' }));
    await user.type(invite.getByLabelText('Nana Patient’s email'), 'nana@example.com');
    await user.click(invite.getByRole('button', { name: 'Invite' }));
    expect(
      await findToast(
        'Nana Patient is invited: once they sign up with nana@example.com and verify it, their record is theirs',
      ),
    ).toBe('success');
  });

  describe('offline', () => {
    const SAVED_AT = Date.parse('2026-11-20T12:00:00Z');
    const goOffline = () => {
      online = false;
      answerList = () => Promise.reject(new TypeError('Failed to fetch'));
    };
    const note = () => screen.getAllByRole('status').find((s) => s.textContent?.startsWith('You are offline.'));

    it('shows the bookings saved on this device, says it is offline and when they are from, and offers no action', async () => {
      await saveBookings(EMAIL, bookings, SAVED_AT);
      goOffline();
      await openMyAppointments();
      await table();

      expect(note()?.textContent).toBe(offlineNoteText(SAVED_AT, english, formatsOf('en')));
      expect(note()?.textContent).toMatch(
        /^You are offline\. Showing your appointments as saved on Nov 20, 2026, \d{1,2}:\d\d [AP]M\.$/,
      );
      expect(screen.getAllByRole('row')).toHaveLength(4);
      expect(screen.queryByRole('link', { name: 'Pay' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Add to calendar' })).toBeNull();
      expect(row('Cavity Filling').getByText('Paid')).toBeTruthy();
      expect(row('Teeth Cleaning').getByText('Unpaid')).toBeTruthy();
    });

    it('shows a booking saved on this device by an older version, which has no doctor or length', async () => {
      const { doctor: _doctor, durationMinutes: _length, ...older } = booking('b-old', { treatment: 'Fluoride' });
      await saveBookings(EMAIL, [older as Booking], SAVED_AT);
      goOffline();
      await openMyAppointments();
      await table();
      expect(row('Fluoride').getByText('To be confirmed')).toBeTruthy();
      expect(row('Fluoride').queryByText(/ min$/)).toBeNull();
      expect(row('Fluoride').getByText('09.00 AM - 09.30 AM')).toBeTruthy();
    });

    it('says so when no appointments are saved on this device', async () => {
      goOffline();
      await openMyAppointments();
      const status = await screen.findByText('You are offline and no saved appointments are on this device.');
      expect(status.closest('[role="status"]')).toBeTruthy();
      expect(screen.queryByRole('table')).toBeNull();
      expect(screen.queryByRole('alert')).toBeNull();
    });

    it("back online, shows the server's list with its actions again", async () => {
      await saveBookings(EMAIL, [bookings[1]!], SAVED_AT);
      goOffline();
      await openMyAppointments();
      await screen.findByText('Cavity Filling');
      expect(screen.queryByText('Teeth Cleaning')).toBeNull();

      online = true;
      answerList = () => json(bookings.map(withDeadlines));
      act(() => void window.dispatchEvent(new Event('online')));

      expect(await screen.findByText('Teeth Cleaning')).toBeTruthy();
      expect(note()).toBeUndefined();
      expect(row('Teeth Cleaning').getByRole('link', { name: 'Pay' })).toBeTruthy();
      expect(row('Teeth Cleaning').getByRole('button', { name: 'Cancel' })).toBeTruthy();
    });

    it('going offline with the list on screen, hides the actions and says when the list was loaded', async () => {
      await openMyAppointments();
      await table();
      expect(row('Teeth Cleaning').getByRole('link', { name: 'Pay' })).toBeTruthy();

      online = false;
      act(() => void window.dispatchEvent(new Event('offline')));

      expect(note()?.textContent).toBe(offlineNoteText(NOW.getTime(), english, formatsOf('en')));
      expect(screen.queryByRole('link', { name: 'Pay' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Add to calendar' })).toBeNull();
    });
  });
});

describe('My Appointments: rescheduling and the clinic’s cancellations', () => {
  it('offers Reschedule until the clinic’s cutoff, and moves the booking to a free time of another day', async () => {
    const user = await openMyAppointments();
    await table();
    // Nov 21, 10:00 in New York now: Nov 25 and 26 are days away, Nov 21 has started.
    expect(row('Cavity Filling').queryByRole('button', { name: 'Reschedule' })).not.toBeNull();
    let sent: unknown;
    answerMove = async (id, request) => {
      sent = { id, body: await request.json() };
      bookings = bookings.map((b) => (b._id === id ? { ...b, _id: 'b-moved', slot: '01.00 PM - 01.30 PM' } : b));
      return json({ acknowledged: true, insertedId: 'b-moved', message: 'Moved' });
    };
    await user.click(row('Cavity Filling').getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule Cavity Filling' });
    expect(within(dialog).getByText('Now: Nov 26, 2026, 09.30 AM - 10.30 AM')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: /November 27/ }));
    await within(dialog).findByRole('option', { name: '01.00 PM - 01.30 PM' });
    await user.selectOptions(within(dialog).getByLabelText('New time'), '01.00 PM - 01.30 PM');
    await user.click(within(dialog).getByRole('button', { name: 'Move appointment' }));
    expect(await findToast('Appointment moved')).toBe('success');
    expect(sent).toEqual({ id: 'b-paid', body: { appointmentDate: '2026-11-27', start: '13:00' } });
    expect(lines('GET /api/appointmentOptions')).toContain('GET /api/appointmentOptions?date=2026-11-27');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByText('01.00 PM - 01.30 PM');
  });

  it('keeps the dialog open with the server’s message when the time was just taken', async () => {
    answerMove = () =>
      json({ acknowledged: false, message: 'This slot was just booked; please choose another one' }, 409);
    const user = await openMyAppointments();
    await table();
    await user.click(row('Cavity Filling').getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule Cavity Filling' });
    await within(dialog).findByRole('option', { name: '11.00 AM - 11.30 AM' });
    await user.click(within(dialog).getByRole('button', { name: 'Move appointment' }));
    expect(await findToast('This slot was just booked; please choose another one')).toBe('error');
    expect(screen.getByRole('dialog', { name: 'Reschedule Cavity Filling' })).toBeTruthy();
  });

  it('hides Reschedule inside the cutoff', async () => {
    cutoffHours = 200; // more than the 5 days to Nov 26
    await openMyAppointments();
    await table();
    await waitFor(() => expect(lines('GET /api/clinic/policy')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Reschedule' })).toBeNull();
  });

  it('lists past and cancelled visits with what became of them, their refund and receipt, and pages on', async () => {
    const past = (id: string, fields: Partial<PastBooking>): PastBooking => ({
      ...booking(id, {}),
      cancelReason: null,
      refund: null,
      hasReceipt: false,
      ...fields,
    });
    history = [
      past('h-clinic', {
        status: 'cancelled',
        cancelReason: 'admin',
        cancelNote: 'Dr. Tanaka is ill; please book another day',
        paid: true,
        refund: { status: 'succeeded', amount: 80, currency: 'usd' },
        hasReceipt: true,
      }),
      past('h-own', { treatment: 'Fluoride Treatment', status: 'cancelled', cancelReason: 'patient' }),
      past('h-released', { treatment: 'Cavity Filling', status: 'cancelled', cancelReason: 'unpaid' }),
    ];
    historyPages = 2;
    const user = await openMyAppointments();
    const section = within(await screen.findByRole('region', { name: 'Past and cancelled' }));
    const item = (text: string) =>
      within(section.getAllByRole('listitem').find((li) => li.textContent?.includes(text))!);
    expect(await section.findByText('Cancelled by the clinic')).toBeTruthy();
    expect(item('Teeth Cleaning').getByText('Dr. Tanaka is ill; please book another day')).toBeTruthy();
    expect(item('Teeth Cleaning').getByText('$80 refunded')).toBeTruthy();
    expect(
      item('Teeth Cleaning')
        .getByRole('link', { name: 'Receipt for Teeth Cleaning on Nov 25, 2026' })
        .getAttribute('href'),
    ).toBe('/dashboard/receipt/h-clinic');
    expect(item('Fluoride Treatment').getByText('Cancelled by you')).toBeTruthy();
    expect(item('Fluoride Treatment').queryByRole('link')).toBeNull();
    expect(section.queryByText('Cavity Filling')).toBeNull();

    await user.click(section.getByRole('button', { name: 'Show older visits' }));
    expect(await section.findByText('Released: not paid in time')).toBeTruthy();
    expect(section.queryByRole('button', { name: 'Show older visits' })).toBeNull();
    expect(lines('GET /api/bookings/history')).toEqual([
      'GET /api/bookings/history?page=1',
      'GET /api/bookings/history?page=2',
    ]);
  });

  it('lists a dependant’s past visit under their name, even when the account holder has none', async () => {
    family = [{ _id: 'd1', name: 'Leo Whitfield', birthDate: '2018-06-01', relationship: 'child' }];
    history = [
      {
        ...booking('h-leo', {
          patientName: 'Leo Whitfield',
          patient: 'Leo Whitfield',
          status: 'cancelled',
          paid: true,
        }),
        cancelReason: 'patient',
        refund: { status: 'succeeded', amount: 60, currency: 'usd' },
        hasReceipt: true,
      },
    ];
    await openMyAppointments();
    const section = within(await screen.findByRole('region', { name: 'Past and cancelled' }));
    const leo = within(await section.findByRole('region', { name: 'Leo Whitfield' }));
    expect(leo.getByText('$60 refunded')).toBeTruthy();
    expect(leo.getByRole('link', { name: /^Receipt for / })).toBeTruthy();
  });
});
