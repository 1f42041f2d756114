import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import type { AppointmentOption } from '../../../lib/appointment-options.ts';
import type { TeamMember } from '../../../lib/team.ts';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import { findToast, json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';
import type { Booking, NewBooking } from '../api/create-booking.ts';
// Loaded now, before Date is faked: @date-fns/tz's TZDate extends the Date it finds when it loads.
import './appointment-page.tsx';

// 03:00 UTC on Nov 21 is still 10 pm on Nov 20 in the clinic (America/New_York): the clinic's today is Nov 20.
const NOW = new Date('2026-11-21T03:00:00Z');
const EMAIL = 'patient@clinic.test';

let options: AppointmentOption[];
let optionDates: string[];
let bookings: { body: NewBooking; authorization: string | null }[];
let answerBooking: (body: NewBooking) => Response;
let answerOptions: () => Response;
let answerBooked: () => Response;
let waitlistJoins: unknown[];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  options = [
    {
      _id: 'teeth-cleaning',
      name: 'Teeth Cleaning',
      slots: ['09.00 AM - 09.30 AM', '09.30 AM - 10.00 AM'],
      starts: ['09:00', '09:30'],
      price: 80,
      durationMinutes: 30,
      specialtyId: 'general-dentistry',
      payment: 'full',
      deposit: null,
      closed: null,
    },
    {
      _id: 'cavity-filling',
      name: 'Cavity Filling',
      slots: [],
      starts: [],
      price: 150,
      durationMinutes: 60,
      specialtyId: 'general-dentistry',
      payment: 'full',
      deposit: null,
      closed: null,
    },
    {
      _id: 'teeth-whitening',
      name: 'Teeth Whitening',
      slots: ['10.00 AM - 11.30 AM'],
      starts: ['10:00'],
      price: 99.5,
      durationMinutes: 90,
      specialtyId: 'general-dentistry',
      payment: 'full',
      deposit: null,
      closed: null,
    },
  ];
  optionDates = [];
  bookings = [];
  waitlistJoins = [];
  answerOptions = () => json(options);
  answerBooked = () =>
    json({
      _id: 'b-1',
      slot: '09.00 AM - 09.30 AM',
      price: 80,
      durationMinutes: 30,
      doctor: { name: 'Dr. Ada Okafor', image: '/api/images/doctors/ada.png' },
      payBy: '2026-11-22T03:00:00.000Z',
      freeCancellationUntil: '2026-11-24T14:00:00.000Z',
      rescheduleUntil: '2026-11-25T02:00:00.000Z',
    });
  answerBooking = (body) => {
    const option = options.find((o) => o.name === body.treatment)!;
    const taken = option.starts.indexOf(body.start ?? '');
    option.slots = option.slots.filter((_, i) => i !== taken);
    option.starts = option.starts.filter((_, i) => i !== taken);
    return json({ acknowledged: true, insertedId: 'b-1', message: 'Booking confirmed' }, 201);
  };
  stubFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/appointmentOptions' && request.method === 'GET') {
      optionDates.push(url.searchParams.get('date') ?? '');
      const doctorId = url.searchParams.get('doctorId');
      if (doctorId)
        return json(
          options.map((o) => {
            const theirs = o.slots.map((s) => doctorSlots[doctorId]?.includes(s));
            return { ...o, slots: o.slots.filter((_, i) => theirs[i]), starts: o.starts.filter((_, i) => theirs[i]) };
          }),
        );
      return answerOptions();
    }
    if (url.pathname === '/api/team') return json(team);
    if (url.pathname === '/api/bookings' && request.method === 'GET') return json(mine);
    if (url.pathname === '/api/bookings' && request.method === 'POST') {
      const body = (await request.json()) as NewBooking;
      bookings.push({ body, authorization: request.headers.get('Authorization') });
      return answerBooking(body);
    }
    if (url.pathname === '/api/bookings/b-1' && request.method === 'GET') return answerBooked();
    if (url.pathname === '/api/users/me/dependants') return json(family);
    if (url.pathname === '/api/appointmentOptions/family') {
      familyQueries.push(url.search);
      return json({
        slots: ['10.00 AM - 10.30 AM', '11.00 AM - 11.30 AM'],
        starts: ['10:00', '11:00'],
        spans: ['10.00 AM - 11.00 AM', '11.00 AM - 12.00 PM'],
        reason: null,
        suggestion: null,
      });
    }
    if (url.pathname === '/api/bookings/family' && request.method === 'POST') {
      familyPosts.push(await request.json());
      return json(
        {
          acknowledged: true,
          insertedIds: ['f1', 'f2'],
          message: 'Family visit booked: 2 appointments',
          visits: [
            {
              _id: 'f1',
              patientName: 'Jamie Patient',
              treatment: 'Teeth Cleaning',
              slot: '11.00 AM - 11.30 AM',
              price: 80,
              payBy: '2026-11-21T15:00:00.000Z',
            },
            {
              _id: 'f2',
              patientName: 'Milo Patient',
              treatment: 'Cavity Filling',
              slot: '11.00 AM - 12.00 PM',
              price: 150,
              payBy: '2026-11-21T15:00:00.000Z',
            },
          ],
        },
        201,
      );
    }
    if (url.pathname === '/api/clinic/policy')
      return json({
        freeCancellationHours: 48,
        rescheduleCutoffHours: 12,
        unpaidHoldHours: 24,
        unpaidHoldHoursBeforeStart: 12,
      });
    if (url.pathname === '/api/waitlist' && request.method === 'GET')
      return json(
        waitlistJoins.slice(0, 1).map(() => ({
          _id: 'w-1',
          treatmentId: 'cavity-filling',
          treatment: 'Cavity Filling',
          from: '2026-11-20',
          to: '2026-11-20',
          createdAt: NOW.toISOString(),
          offer: null,
        })),
      );
    if (url.pathname === '/api/waitlist' && request.method === 'POST') {
      waitlistJoins.push(await request.json());
      return waitlistJoins.length > 1
        ? json(
            { acknowledged: false, message: 'You are already on the waitlist for Cavity Filling on Nov 20, 2026' },
            409,
          )
        : json(
            {
              acknowledged: true,
              insertedId: 'w-1',
              message: 'You are on the waitlist for Cavity Filling on Nov 20, 2026',
            },
            201,
          );
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs(EMAIL, 'Jamie Patient');
  storeSession(EMAIL);
});

afterEach(() => {
  vi.useRealTimers();
  family = [];
  team = [];
  mine = [];
  doctorSlots = {};
});

let team: TeamMember[] = [];
let mine: Partial<Booking>[] = [];
let doctorSlots: Record<string, string[]> = {};

let family: { _id: string; name: string; birthDate: string; relationship: string }[] = [];
let familyQueries: string[] = [];
let familyPosts: unknown[] = [];

async function openAppointmentPage(path = '/appointment') {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path });
  // The first render loads the lazy page and the calendar: allow more than the default second.
  await screen.findByRole('heading', { level: 1, name: 'Appointment' });
  return user;
}

const card = async (name: string) => within(await screen.findByRole('article', { name }));
const availableHeading = () => screen.getByRole('heading', { name: /^Available Appointments on / });
const dayButton = (label: string) => screen.getByRole('button', { name: label });

async function openBookingModal(user: ReturnType<typeof userEvent.setup>, treatment = 'Teeth Cleaning') {
  const opener = (await card(treatment)).getByRole('button', { name: /^Book Appointment/ });
  await user.click(opener);
  return { opener, dialog: within(screen.getByRole('dialog', { name: treatment })) };
}

function goOffline() {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  act(() => {
    window.dispatchEvent(new Event('offline'));
  });
}

describe('Appointment page: the calendar', () => {
  it("selects the clinic's today by default and lists that day's appointments under its PP date", async () => {
    await openAppointmentPage();
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Available Appointments on Nov 20, 2026' }),
    ).toBeTruthy();
    expect(dayButton('Today, Friday, November 20, 2026, selected')).toBeTruthy();
    await card('Teeth Cleaning');
    expect(optionDates).toEqual(['2026-11-20']);
  });

  it('disables the days before today and the days beyond the 60-day horizon', async () => {
    const user = await openAppointmentPage();
    expect((dayButton('Thursday, November 19, 2026') as HTMLButtonElement).disabled).toBe(true);
    expect((dayButton('Sunday, November 1, 2026') as HTMLButtonElement).disabled).toBe(true);
    expect((dayButton('Saturday, November 21, 2026') as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByRole('button', { name: 'Go to the Previous Month' }).getAttribute('aria-disabled')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Go to the Next Month' }));
    await user.click(screen.getByRole('button', { name: 'Go to the Next Month' }));
    expect((dayButton('Tuesday, January 19, 2027') as HTMLButtonElement).disabled).toBe(false);
    expect((dayButton('Wednesday, January 20, 2027') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Go to the Next Month' }).getAttribute('aria-disabled')).toBe('true');

    await user.click(dayButton('Wednesday, January 20, 2027'));
    expect(availableHeading().textContent).toBe('Available Appointments on Nov 20, 2026');
  });

  it('keeps the chosen day when it is clicked again, and loads the slots of another day when that is picked', async () => {
    const user = await openAppointmentPage();
    await card('Teeth Cleaning');
    await user.click(dayButton('Today, Friday, November 20, 2026, selected'));
    expect(dayButton('Today, Friday, November 20, 2026, selected')).toBeTruthy();
    expect(availableHeading().textContent).toBe('Available Appointments on Nov 20, 2026');

    await user.click(dayButton('Wednesday, November 25, 2026'));
    expect(dayButton('Wednesday, November 25, 2026, selected')).toBeTruthy();
    expect(availableHeading().textContent).toBe('Available Appointments on Nov 25, 2026');
    await waitFor(() => expect(optionDates).toEqual(['2026-11-20', '2026-11-25']));
  });

  it('says so, readably, when the appointments cannot be loaded', async () => {
    answerOptions = () => json({ message: 'The clinic is closed for maintenance' }, 503);
    await openAppointmentPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The clinic is closed for maintenance');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('Appointment page: the treatment cards', () => {
  it('shows each treatment with its first free slot, the spaces left, its length and the price', async () => {
    await openAppointmentPage();
    const cleaning = await card('Teeth Cleaning');
    expect(cleaning.getByText('09.00 AM - 09.30 AM')).toBeTruthy();
    expect(cleaning.getByText('2 spaces available')).toBeTruthy();
    expect(cleaning.getByText('Length: 30 min')).toBeTruthy();
    expect(cleaning.getByText('Price: $80')).toBeTruthy();
    expect((cleaning.getByRole('button', { name: /^Book Appointment/ }) as HTMLButtonElement).disabled).toBe(false);

    const whitening = await card('Teeth Whitening');
    expect(whitening.getByText('10.00 AM - 11.30 AM')).toBeTruthy();
    expect(whitening.getByText('1 space available')).toBeTruthy();
    expect(whitening.getByText('Length: 90 min')).toBeTruthy();
    expect(whitening.getByText('Price: $99.50')).toBeTruthy();
  });

  it('disables Book Appointment on a card with no slot left', async () => {
    const user = await openAppointmentPage();
    const filling = await card('Cavity Filling');
    expect(filling.getByText('Try another day')).toBeTruthy();
    expect(filling.getByText('0 spaces available')).toBeTruthy();
    const button = filling.getByRole('button', { name: /^Book Appointment/ }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await user.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers Join the waitlist only on a card with no slot left, for the chosen day, then says the patient waits', async () => {
    const user = await openAppointmentPage();
    const filling = await card('Cavity Filling');
    expect((await card('Teeth Cleaning')).queryByRole('button', { name: 'Join the waitlist' })).toBeNull();
    await user.click(filling.getByRole('button', { name: 'Join the waitlist' }));
    expect(await findToast('You are on the waitlist for Cavity Filling on Nov 20, 2026')).toBeTruthy();
    expect(waitlistJoins).toEqual([{ treatment: 'cavity-filling', from: '2026-11-20' }]);
    expect(await filling.findByText('You are on the waitlist: we will mail you if a time frees up.')).toBeTruthy();
    expect(filling.queryByRole('button', { name: 'Join the waitlist' })).toBeNull();
  });

  it('says a closed day is closed, why, and offers the next day the clinic opens: no cards, no waitlist', async () => {
    for (const option of options) {
      option.slots = [];
      option.closed = { reason: 'Staff training', nextOpenDate: '2026-11-22' };
    }
    const user = await openAppointmentPage();
    expect(await screen.findByText('Closed: Staff training')).toBeTruthy();
    expect(screen.queryAllByRole('article')).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Join the waitlist' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'See Sunday, Nov 22, 2026, the next day the clinic opens' }));
    expect(await screen.findByRole('heading', { name: 'Available Appointments on Nov 22, 2026' })).toBeTruthy();
  });

  it('says on a card why it is closed when its doctors are away, and offers no waitlist', async () => {
    options[1] = { ...options[1]!, closed: { reason: 'Dr. Kwame Mensah is away: Conference', nextOpenDate: null } };
    await openAppointmentPage();
    const filling = await card('Cavity Filling');
    expect(filling.getByText('Closed: Dr. Kwame Mensah is away: Conference')).toBeTruthy();
    expect(filling.queryByRole('button', { name: 'Join the waitlist' })).toBeNull();
  });
});

describe('Appointment page: the booking modal', () => {
  it("shows the date, the patient's name and email read-only and offers the card's free slots", async () => {
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);

    const date = dialog.getByLabelText('Date') as HTMLInputElement;
    const name = dialog.getByLabelText('Name') as HTMLInputElement;
    const email = dialog.getByLabelText('Email') as HTMLInputElement;
    expect([date.value, name.value, email.value]).toEqual(['Nov 20, 2026', 'Jamie Patient', EMAIL]);
    expect([date.readOnly, name.readOnly, email.readOnly]).toEqual([true, true, true]);
    expect((dialog.getByLabelText('Phone Number') as HTMLInputElement).readOnly).toBe(false);

    const slot = dialog.getByLabelText('Slot') as HTMLSelectElement;
    expect([...slot.options].map((o) => [o.value, o.textContent])).toEqual([
      ['09:00', '09.00 AM - 09.30 AM'],
      ['09:30', '09.30 AM - 10.00 AM'],
    ]);
    expect(document.activeElement).toBe(slot);
  });

  it('shows the length, and offers any doctor or one who performs it', async () => {
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user, 'Teeth Whitening');
    expect(dialog.getByText('Length').nextElementSibling?.textContent).toBe('90 min');
    // One doctor or none known: nothing to choose.
    expect(dialog.queryByLabelText('Doctor')).toBeNull();
  });

  it("books again the last visit's treatment with its doctor, in that doctor's free times, or any doctor's", async () => {
    const member = (id: string, name: string, specialtyId: string) => ({
      _id: id,
      name,
      specialty: specialtyId,
      specialtyId,
      image: `/api/images/doctors/${id}.png`,
    });
    team = [
      member('dr-ada', 'Dr. Ada Okafor', 'general-dentistry'),
      member('dr-ben', 'Dr. Ben Ito', 'general-dentistry'),
      member('dr-cy', 'Dr. Cy Braces', 'orthodontics'),
    ];
    mine = [
      {
        _id: 'past-1',
        treatment: 'Teeth Cleaning',
        treatmentId: 'teeth-cleaning',
        startsAt: '2026-10-01T14:00:00.000Z',
        status: 'attended',
        doctor: { _id: 'dr-ben', name: 'Dr. Ben Ito', image: '/api/images/doctors/dr-ben.png' },
      },
    ];
    doctorSlots = { 'dr-ben': ['09.30 AM - 10.00 AM'] };
    const user = await openAppointmentPage();
    await user.click(await screen.findByRole('button', { name: 'Book again: Teeth Cleaning with Dr. Ben Ito' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Teeth Cleaning' }));
    const doctor = dialog.getByLabelText('Doctor') as HTMLSelectElement;
    expect([...doctor.options].map((o) => o.textContent)).toEqual([
      'Any doctor (the first free)',
      'Dr. Ada Okafor',
      'Dr. Ben Ito (your last visit)',
    ]);
    expect(doctor.value).toBe('dr-ben');
    const slot = dialog.getByLabelText('Slot') as HTMLSelectElement;
    await waitFor(() => expect([...slot.options].map((o) => o.value)).toEqual(['09:30']));

    await user.selectOptions(doctor, '');
    expect([...slot.options].map((o) => o.value)).toEqual(['09:00', '09:30']);
    await user.selectOptions(doctor, 'dr-ben');
    await waitFor(() => expect(slot.value).toBe('09:30'));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    await screen.findByRole('heading', { name: 'Booking confirmed' });
    expect(bookings[0]?.body).toMatchObject({
      treatment: 'Teeth Cleaning',
      start: '09:30',
      doctorId: 'dr-ben',
    });
  });

  it('says, for the chosen time, until when it can be cancelled free and moved, and how long unpaid it is held', async () => {
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);
    // Nov 20, 9.00 AM, under 48 hours' free cancellation and a 12-hour cutoff: both have passed at 10 pm.
    expect(
      await dialog.findByText(
        'Free cancellation ended Nov 18, 9:00 AM; to reschedule, call the clinic. Pay within 24 hours of booking (at the latest 12 hours before the visit), or the time is released.',
      ),
    ).toBeTruthy();
  });

  it('ends on a confirmation: what, when, with whom, the price, until when to pay with Pay now, and the policy', async () => {
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    const confirmed = within(await screen.findByRole('dialog', { name: 'Booking confirmed' }));
    expect(document.activeElement).toBe(confirmed.getByRole('heading', { name: 'Booking confirmed' }));
    const facts = (term: string) => confirmed.getByText(term).nextElementSibling?.textContent;
    expect([facts('What'), facts('When'), facts('With'), facts('Price')]).toEqual([
      'Teeth Cleaning, 30 min',
      'Nov 20, 2026, 09.00 AM - 09.30 AM',
      'Dr. Ada Okafor',
      '$80',
    ]);
    expect(confirmed.getByText('Dr. Ada Okafor').querySelector('img')?.getAttribute('src')).toBe(
      '/api/images/doctors/ada.png',
    );
    expect(confirmed.getByText('Pay by Nov 21, 10:00 PM, or the time is released.')).toBeTruthy();
    expect(
      confirmed.getByText('Free cancellation until Nov 24, 9:00 AM; reschedule online until Nov 24, 9:00 PM.'),
    ).toBeTruthy();
    expect(confirmed.getByRole('link', { name: 'Pay now' }).getAttribute('href')).toBe('/dashboard/payment/b-1');
    expect(screen.queryByRole('status', { name: /Booking confirmed/ })).toBeNull();
  });

  it('asks who the visit is for when the account has a family, and books it for that person', async () => {
    family = [{ _id: 'd1', name: 'Milo Patient', birthDate: '2016-04-02', relationship: 'child' }];
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);
    const who = await dialog.findByLabelText('Who is this for?');
    expect([...(who as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'Me (Jamie Patient)',
      'Milo Patient',
    ]);
    await user.selectOptions(who, 'Milo Patient');
    expect((dialog.getByLabelText('Name') as HTMLInputElement).value).toBe('Milo Patient');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    await screen.findByRole('dialog', { name: 'Booking confirmed' });
    expect(bookings.at(-1)?.body).toMatchObject({ patientId: 'd1', patientName: 'Milo Patient' });
  });

  it('books a family visit: who comes for what, together, at a start where all fit', async () => {
    family = [{ _id: 'd1', name: 'Milo Patient', birthDate: '2016-04-02', relationship: 'child' }];
    familyQueries = [];
    familyPosts = [];
    const user = await openAppointmentPage();
    await user.click(await screen.findByRole('button', { name: 'Book a family visit' }));
    const dialog = within(await screen.findByRole('dialog', { name: /^Family visit on / }));
    expect(dialog.getByText('Choose a treatment for two people or more.')).toBeTruthy();
    await user.selectOptions(dialog.getByLabelText('Jamie Patient (me)'), 'Teeth Cleaning');
    await user.selectOptions(dialog.getByLabelText('Milo Patient'), 'Cavity Filling');
    const start = (await dialog.findByLabelText('Start (the whole family’s time)')) as HTMLSelectElement;
    expect([...start.options].map((o) => o.value)).toEqual(['10:00', '11:00']);
    // Each start names the family's whole time; the prices and the total show before booking.
    expect([...start.options].map((o) => o.textContent)).toEqual(['10.00 AM - 11.00 AM', '11.00 AM - 12.00 PM']);
    expect(dialog.getByText('Jamie Patient (me): $80 · Milo Patient: $150. Total $230.')).toBeTruthy();
    expect(familyQueries.at(-1)).toContain('arrangement=together');
    await user.selectOptions(start, '11:00');
    await user.click(dialog.getByRole('button', { name: 'Book the family visit' }));
    // The confirmation, as a single booking's: each person's time, the total, until when to pay, Pay now.
    expect(await dialog.findByText('Milo Patient: Cavity Filling, 11.00 AM - 12.00 PM ($150)')).toBeTruthy();
    expect(dialog.getByText('Total $230.')).toBeTruthy();
    expect(dialog.getByText(/^Pay by .+, or the time is released\.$/)).toBeTruthy();
    expect(dialog.getByRole('link', { name: 'Pay now' }).getAttribute('href')).toBe('/dashboard/payment/f1');
    expect(familyPosts).toEqual([
      {
        appointmentDate: '2026-11-20',
        start: '11:00',
        arrangement: 'together',
        members: [{ treatment: 'teeth-cleaning' }, { patientId: 'd1', treatment: 'cavity-filling' }],
      },
    ]);
  });

  it('opens on the day a family recall’s link names, the family visit’s dialog open; a bad day is ignored', async () => {
    family = [{ _id: 'd1', name: 'Milo Patient', birthDate: '2016-04-02', relationship: 'child' }];
    await openAppointmentPage('/appointment?date=2026-11-27&family');
    expect(await screen.findByRole('dialog', { name: 'Family visit on Nov 27, 2026' })).toBeTruthy();
    expect(optionDates.at(-1)).toBe('2026-11-27');
  });

  it('opens a published free time’s deep link on its treatment and time; a taken time offers the nearest', async () => {
    await openAppointmentPage(
      '/appointment?date=2026-11-21&treatment=teeth-cleaning&start=09:30&source=aggregator&booking-referral=r1',
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Teeth Cleaning' }));
    expect(dialog.getByLabelText<HTMLSelectElement>('Slot').value).toBe('09:30');
    expect(optionDates.at(-1)).toBe('2026-11-21');
    cleanup();
    await openAppointmentPage('/appointment?date=2026-11-21&treatment=teeth-cleaning&start=10:00');
    const stale = within(await screen.findByRole('dialog', { name: 'Teeth Cleaning' }));
    expect(stale.getByLabelText<HTMLSelectElement>('Slot').value).toBe('09:30');
    expect(stale.getByText('10.00 AM is no longer free; the nearest free time, 09.30 AM, is chosen.')).toBeTruthy();
    cleanup();
    // A link made before times had starts names the time by its label: it opens on that time too.
    await openAppointmentPage('/appointment?date=2026-11-21&treatment=teeth-cleaning&slot=09.30%20AM%20-%2010.00%20AM');
    const labelled = within(await screen.findByRole('dialog', { name: 'Teeth Cleaning' }));
    expect(labelled.getByLabelText<HTMLSelectElement>('Slot').value).toBe('09:30');
  });

  it('ignores a linked day that is past or not a day', async () => {
    await openAppointmentPage('/appointment?date=2026-02-30');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Available Appointments on Nov 20, 2026' }),
    ).toBeTruthy();
    cleanup();
    await openAppointmentPage('/appointment?date=2026-11-01');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Available Appointments on Nov 20, 2026' }),
    ).toBeTruthy();
  });

  it('still confirms a booking whose details cannot be read back, with what it knows', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    answerBooked = () => json({ message: 'Something went wrong' }, 500);
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    const confirmed = within(await screen.findByRole('dialog', { name: 'Booking confirmed' }));
    expect(confirmed.getByText('The doctor free at your time')).toBeTruthy();
    expect(confirmed.queryByText(/^Pay by/)).toBeNull();
    expect(confirmed.getByRole('link', { name: 'Pay now' })).toBeTruthy();
  });

  it('sends the booking by its day and start, confirms it, closes the modal on Done and refetches the slots', async () => {
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);
    await user.selectOptions(dialog.getByLabelText('Slot'), '09.30 AM - 10.00 AM');
    await user.type(dialog.getByLabelText('Phone Number'), '+1 555 0100');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    const confirmed = within(await screen.findByRole('dialog', { name: 'Booking confirmed' }));
    await user.click(confirmed.getByRole('button', { name: 'Done' }));
    expect(bookings).toEqual([
      {
        body: {
          treatment: 'Teeth Cleaning',
          appointmentDate: '2026-11-20',
          start: '09:30',
          patientName: 'Jamie Patient',
          email: EMAIL,
          phone: '+1 555 0100',
          price: 80,
        },
        authorization: `Bearer access:${EMAIL}`,
      },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(optionDates).toEqual(['2026-11-20', '2026-11-20']));
    expect((await card('Teeth Cleaning')).getByText('1 space available')).toBeTruthy();
  });

  it("shows the server's message in an error toast when the slot was just taken, and keeps the modal open", async () => {
    answerBooking = () =>
      json({ acknowledged: false, message: 'This slot was just booked; please choose another one' }, 409);
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    expect(await findToast('This slot was just booked; please choose another one')).toBe('error');
    expect(screen.queryByText('Booking confirmed')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Teeth Cleaning' })).toBeTruthy();
    await waitFor(() => expect(optionDates).toHaveLength(2));
  });

  it("shows the server's message when booking waits for a verified email (403)", async () => {
    const verifyFirst = 'Please verify your email address first: open the link we emailed you, then try again';
    answerBooking = () => json({ acknowledged: false, message: verifyFirst }, 403);
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await findToast(verifyFirst)).toBe('error');
    expect(screen.queryByText('Booking confirmed')).toBeNull();
  });

  it('treats an answer without acknowledged as a failure and shows its message', async () => {
    answerBooking = () => json({ acknowledged: false, message: 'You already have a booking on Nov 20, 2026' });
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await findToast('You already have a booking on Nov 20, 2026')).toBe('error');
    expect(screen.getByRole('dialog', { name: 'Teeth Cleaning' })).toBeTruthy();
  });

  it('closes on Escape and on Close, returning focus to the card’s button, without booking', async () => {
    const user = await openAppointmentPage();
    const { opener } = await openBookingModal(user);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);

    const { dialog } = await openBookingModal(user);
    await user.click(dialog.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(bookings).toEqual([]);
  });

  it('keeps Tab inside the modal', async () => {
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);
    const box = screen.getByRole('dialog');
    for (let i = 0; i < 8; i += 1) {
      await user.tab();
      expect(box.contains(document.activeElement)).toBe(true);
    }
    expect(dialog.getByRole('button', { name: 'Submit' })).toBeTruthy();
  });

  it('books while navigator.onLine says offline but the server answers (a loopback-only machine)', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);
    expect(dialog.queryByText('You are offline. Booking needs a connection.')).toBeNull();
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('dialog', { name: 'Booking confirmed' })).toBeTruthy();
    expect(bookings.map((b) => b.body.treatment)).toEqual(['Teeth Cleaning']);
  });

  it('says booking needs a connection once the booking fails on the network, and disables Submit', async () => {
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch'))); // the network is gone
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    expect(await dialog.findByText('You are offline. Booking needs a connection.')).toBeTruthy();
    expect((dialog.getByRole('button', { name: 'Submit' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says booking needs a connection while offline, and disables Submit until the browser is back online', async () => {
    const user = await openAppointmentPage();
    const { dialog } = await openBookingModal(user);
    goOffline();

    expect(dialog.getByText('You are offline. Booking needs a connection.')).toBeTruthy();
    const submit = dialog.getByRole('button', { name: 'Submit' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await user.click(submit);
    expect(bookings).toEqual([]);

    await user.keyboard('{Escape}');
    expect(screen.getByText('You are offline. Booking needs a connection.')).toBeTruthy();

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.queryByText('You are offline. Booking needs a connection.')).toBeNull();
    const reopened = await openBookingModal(user);
    expect((reopened.dialog.getByRole('button', { name: 'Submit' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
