import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format } from 'date-fns/format';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render as prerender, renderSignedIn } from '../entry-server.tsx';
import { clinicToday, isoDay } from '../lib/clinic-calendar.ts';
import { aBooking, accessTokenFor, storeSession, stubFetch, stubMediaQueries } from '../testing/test-utils.tsx';
import { App } from './app.tsx';
import { preloadRoute } from './routes.tsx';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

/**
 * Renders `path` as the Worker does for `email` with `answers`, then hydrates it as the browser does (the app's
 * own calls never answering); fails on a mismatch, on any error React logs, and when the page takes input before
 * React has attached to each of its buttons (React hydrates a Suspense boundary's content after the rest). Answers
 * the served page, and what the app has asked the API since (a call already on its way is not asked again: the first
 * test of a path sees all).
 */
async function hydrateServed(path: string, email: string, answers: Record<string, unknown>) {
  stubMediaQueries(['(min-width: 1024px)', '(min-width: 640px)']);
  const fetched = stubFetch(() => new Promise<Response>(() => {})); // the app's own calls still on their way
  storeSession(email, accessTokenFor(email));
  window.history.replaceState(null, '', path);
  const page = await renderSignedIn(path, { email, verified: true }, async (apiPath) => answers[apiPath]);
  await preloadRoute(path);
  // As the Worker serves it: inert until the app has taken it over.
  const container = Object.assign(document.createElement('div'), { id: 'root', innerHTML: page?.root ?? '' });
  container.setAttribute('inert', '');
  document.body.append(container);
  // The buttons React had not attached to yet when the page began to take input.
  const deadWhenLive: string[] = [];
  const removeAttribute = Element.prototype.removeAttribute;
  vi.spyOn(Element.prototype, 'removeAttribute').mockImplementation(function (this: Element, name: string) {
    if (this === container && name === 'inert')
      for (const button of container.querySelectorAll('button'))
        if (!Object.keys(button).some((key) => key.startsWith('__reactProps')))
          deadWhenLive.push(button.textContent ?? '');
    removeAttribute.call(this, name);
  });
  const onRecoverableError = vi.fn();
  const consoleError = vi.spyOn(console, 'error');
  await act(async () => {
    root = hydrateRoot(container, <App fromSavedSession firstAnswers={{ email, answers }} />, { onRecoverableError });
  });
  expect(container.hasAttribute('inert')).toBe(false);
  expect(deadWhenLive).toEqual([]);
  expect(onRecoverableError).not.toHaveBeenCalled();
  const errors = consoleError.mock.calls
    .map((call) => String(call[0]))
    .filter((m) => !m.includes('multiple renderers'));
  expect(errors).toEqual([]);
  /** The API paths the app has asked for so far. */
  const asked = () => fetched.mock.calls.map(([input]) => String(input).replace(/^\/api/, ''));
  return { ...page, asked };
}

/** Lets SWR's revalidation on mount (an animation frame after it) start. */
const aFewFrames = () => act(() => new Promise((resolve) => setTimeout(resolve, 100)));

describe('prerendered landing page', () => {
  it('contains the landing content and hydrates without a mismatch', async () => {
    stubMediaQueries(['(min-width: 1024px)', '(min-width: 640px)']);
    stubFetch(() => new Promise<Response>(() => {})); // reviews still loading
    const html = await prerender('/');
    expect(html).toContain('9.00 am to 5.00pm every day');
    expect(html).toContain('What Our Patients Says');

    const container = document.createElement('div');
    container.id = 'root';
    container.innerHTML = html;
    document.body.append(container);
    const onRecoverableError = vi.fn();
    const consoleError = vi.spyOn(console, 'error');

    await act(async () => {
      root = hydrateRoot(container, <App />, { onRecoverableError });
    });

    expect(onRecoverableError).not.toHaveBeenCalled();
    // The server and client renderers share one process here, which React's dev build notes; that is not a mismatch.
    const errors = consoleError.mock.calls
      .map((call) => String(call[0]))
      .filter((m) => !m.includes('multiple renderers'));
    expect(errors).toEqual([]);
    // hydrated, hence interactive
    const toggle = screen.getByRole('button', { name: 'Menu' });
    await userEvent.setup().click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
  });

  it('hydrates signed-out for a signed-in visitor, then shows Dashboard and Sign Out from the stored session', async () => {
    stubMediaQueries(['(min-width: 1024px)', '(min-width: 640px)']);
    stubFetch(() => new Promise<Response>(() => {}));
    const html = await prerender('/');
    storeSession('pat@clinic.test');

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const onRecoverableError = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, <App />, { onRecoverableError });
    });

    expect(onRecoverableError).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Dashboard' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
  });
});

describe('My Appointments as the Worker renders it with the patient’s list', () => {
  const email = 'pat@clinic.test';
  const startsAt = new Date(Date.now() + 5 * 86_400_000);
  const dayBefore = new Date(startsAt.getTime() - 86_400_000).toISOString();
  const booking = aBooking({
    appointmentDate: 'Dec 2, 2026',
    date: startsAt.toISOString().slice(0, 10),
    startsAt: startsAt.toISOString(),
    patientName: 'Pat',
    patient: 'Pat',
    email,
    freeCancellationUntil: dayBefore,
    rescheduleUntil: dayBefore,
  });
  const answers: Record<string, unknown> = {
    '/bookings?email=pat%40clinic.test': [booking],
    '/users/me/dependants': [],
    '/users/me/reminders': { remindersOn: false },
    '/users/me/sms': { phone: '+15550100200', smsConsent: true, stopped: false },
    '/waitlist': [],
    '/clinic/policy': {
      freeCancellationHours: 24,
      rescheduleCutoffHours: 24,
      unpaidHoldHours: 24,
      unpaidHoldHoursBeforeStart: 12,
    },
    '/users/admin/pat%40clinic.test': { isAdmin: false },
  };

  it('hydrates from the answers the page carries, without a mismatch, asks none of them again, and takes taps', async () => {
    const page = await hydrateServed('/dashboard', email, answers);
    await aFewFrames();
    expect(page.asked().filter((path) => path in answers)).toEqual([]);
    expect(page?.root).toContain('Teeth Cleaning');
    expect(page?.data).toContain('<script id="first-answers" type="application/json">');
    expect(screen.queryByText('Loading your appointments')).toBeNull();
    // The sections below the list came whole too: the patient's own settings, not their loading states.
    expect(page?.root).toContain('value="+15550100200"');
    expect(screen.getByLabelText('Email me a reminder the day before each appointment')).toHaveProperty(
      'checked',
      false,
    );
    expect(screen.getByLabelText('Mobile number')).toHaveProperty('value', '+15550100200');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('dialog', { name: 'Cancel this appointment?' })).toBeTruthy();
  });

  it('is not rendered for a page without first data, nor when its first answer failed', async () => {
    const answer = async (path: string) => answers[path];
    expect(await renderSignedIn('/review', { email, verified: true }, answer)).toBeNull();
    expect(await renderSignedIn('/dashboard', { email, verified: true }, async () => undefined)).toBeNull();
    expect(await renderSignedIn('/dashboard/payment/%E0%A4%A', { email, verified: true }, answer)).toBeNull();
  });
});

describe('the booking page as the Worker renders it for the patient', () => {
  const email = 'pat@clinic.test';
  const today = format(clinicToday(), 'PP');
  const answers: Record<string, unknown> = {
    [`/appointmentOptions?date=${isoDay(clinicToday())}`]: [
      {
        _id: 't-1',
        name: 'Teeth Cleaning',
        slots: ['04.00 PM - 04.30 PM'],
        starts: ['16:00'],
        price: 80,
        durationMinutes: 30,
      },
      { _id: 't-2', name: 'Root Canal', slots: [], starts: [], price: 400, durationMinutes: 90 },
    ],
    '/waitlist': [],
    '/users/me/dependants': [],
  };

  it('hydrates the day’s free times and the calendar without a mismatch, asks none of them again, and takes taps', async () => {
    const page = await hydrateServed('/appointment', email, answers);
    await aFewFrames();
    expect(page.asked().filter((path) => path in answers)).toEqual([]);
    // Rendered for this visit: the day's treatments, and the calendar's month with today chosen.
    expect(page?.root).toContain('Teeth Cleaning');
    expect(page?.root).toContain(`Available Appointments on ${today}`);
    expect(page?.root).toContain(`Today, ${format(clinicToday(), 'EEEE, MMMM d, yyyy')}, selected`);
    expect(screen.queryByText('Loading appointments')).toBeNull();
    expect(screen.getByRole('button', { name: 'Join the waitlist' })).toHaveProperty('disabled', false);
    await userEvent.setup().click(screen.getAllByRole('button', { name: /^Book Appointment/ })[0] as HTMLElement);
    expect(await screen.findByRole('dialog', { name: /Teeth Cleaning/ })).toBeTruthy();
  });

  it('is the frame for a link that names a day', async () => {
    const answer = async (path: string) => answers[path];
    expect(await renderSignedIn('/appointment?date=2026-12-01', { email, verified: true }, answer)).toBeNull();
  });
});
