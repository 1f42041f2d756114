import { loadStripe } from '@stripe/stripe-js';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import useSWR from 'swr';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import { api } from '../../../lib/api.ts';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import {
  aBooking,
  describeRequest,
  json,
  renderWithProviders,
  storeSession,
  stubFetch,
} from '../../../testing/test-utils.tsx';
import type { PaymentIntentAnswer } from '../api/create-payment-intent.ts';
import type { Booking } from '../api/get-booking.ts';
import type { Receipt } from '../api/get-receipt.ts';
import { createFakeStripe, type FakeStripe } from '../testing/fake-stripe.ts';

// Stripe.js cannot load here (no network): the page's loader gets a fake Stripe object instead.
vi.mock('@stripe/stripe-js', () => ({ loadStripe: vi.fn() }));

type Handler = (request: Request) => Response | Promise<Response>;

const DEMO_NOTE =
  'Demo payments: no card is charged. Use 4242 4242 4242 4242 to pay, 4000 0000 0000 0002 to see a decline.';

let booking: Booking;
let receipt: Receipt;
let routes: Record<string, Handler>;
let calls: { call: string; body: unknown }[];

const demoIntent: PaymentIntentAnswer = {
  clientSecret: 'pi_demo_b1_secret_0123456789abcdef01234567',
  provider: 'demo',
  publishableKey: null,
  amount: 120,
  currency: 'usd',
};
const stripeIntent: PaymentIntentAnswer = {
  clientSecret: 'pi_3Stripe123_secret_abc',
  provider: 'stripe',
  publishableKey: 'pk_test_clinic',
  amount: 120,
  currency: 'usd',
};

/** A response the test hands out when it chooses to. */
function held() {
  let release: (response: Response) => void = () => {};
  const response = new Promise<Response>((resolve) => (release = resolve));
  return { handler: () => response, release: (answer: Response) => act(async () => release(answer)) };
}

let online = true;
beforeEach(() => {
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  booking = aBooking({
    treatment: 'Teeth Whitening',
    treatmentId: 'teeth-whitening',
    appointmentDate: 'May 4, 2026',
    date: '2026-05-04',
    slot: '10.00 AM - 10.30 AM',
    startsAt: '2026-05-04T08:00:00.000Z',
    patientName: 'Pat Patient',
    patient: 'Pat Patient',
    phone: '555 0100',
    price: 120,
    freeCancellationUntil: '2026-05-03T08:00:00.000Z',
    rescheduleUntil: '2026-05-03T08:00:00.000Z',
  });
  receipt = {
    bookingId: 'b-1',
    treatment: 'Teeth Whitening',
    appointmentDate: 'May 4, 2026',
    slot: '10.00 AM - 10.30 AM',
    patientName: 'Pat Patient',
    email: 'patient@clinic.test',
    bookingStatus: 'active',
    amount: 120,
    currency: 'usd',
    paidAt: '2026-05-01T14:30:00.000Z',
    transactionId: 'pi_demo_b1',
    provider: 'demo',
    method: null,
    card: { brand: 'visa', last4: '4242' },
    refund: null,
  };
  calls = [];
  routes = {
    'GET /api/users/admin/patient%40clinic.test': () => json({ isAdmin: false }),
    'GET /api/bookings/b-1/receipt': () => json(receipt),
    'GET /api/bookings/b-1': () => json(booking),
    'GET /api/payments/provider': () => json({ provider: 'demo', publishableKey: null }),
    'POST /api/create-payment-intent': () => json(demoIntent),
    'POST /api/demo-payments/confirm': () =>
      json({ paymentIntent: { id: 'pi_demo_b1', status: 'succeeded', amount: 120 } }),
    'POST /api/payments': (request) =>
      request
        .json()
        .then((body: { transactionId: string }) =>
          json({ acknowledged: true, insertedId: body.transactionId, message: 'Payment recorded' }),
        ),
  };
  stubFetch(async (request) => {
    const call = describeRequest(request);
    calls.push({ call, body: request.method === 'POST' ? await request.clone().json() : undefined });
    const handler = routes[call];
    return handler ? handler(request) : json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('patient@clinic.test', 'Pat Patient');
  storeSession('patient@clinic.test');
});

// Stands in for My Appointments' list, cached under ['/bookings', email] by its own feature.
function BookingList() {
  useSWR(['/bookings', 'patient@clinic.test'], ([, email]) => api(`/bookings?email=${encodeURIComponent(email)}`));
  return null;
}

const callsTo = (call: string) => calls.filter((c) => c.call === call);
const payButton = () => screen.getByRole<HTMLButtonElement>('button', { name: /^Pay \$\d/ });

async function openPaymentPage(path = '/dashboard/payment/b-1') {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path });
  await screen.findByRole('heading', { level: 1, name: 'Payment for Teeth Whitening' });
  return user;
}

async function fillDemoCard(user: ReturnType<typeof userEvent.setup>, number: string, expiry = '12/34', cvc = '123') {
  await user.type(await screen.findByLabelText('Card number'), number);
  await user.type(screen.getByLabelText('Expiry (MM/YY)'), expiry);
  await user.type(screen.getByLabelText('CVC'), cvc);
}

function useStripeProvider(fake: FakeStripe) {
  routes['GET /api/payments/provider'] = () => json({ provider: 'stripe', publishableKey: 'pk_test_clinic' });
  routes['POST /api/create-payment-intent'] = () => json(stripeIntent);
  vi.mocked(loadStripe).mockResolvedValue(fake.stripe);
}

describe('Payment page: the booking', () => {
  it('loads the booking under a plain heading, then names the treatment, amount, date, slot and patient', async () => {
    const answer = held();
    routes['GET /api/bookings/b-1'] = answer.handler;
    renderWithProviders(<AppRoutes />, { path: '/dashboard/payment/b-1' });

    expect(await screen.findByText('Loading the booking')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Payment');
    expect(screen.queryByText(/Please pay/)).toBeNull();
    expect(callsTo('POST /api/create-payment-intent')).toEqual([]);

    await answer.release(json(booking));
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment for Teeth Whitening' })).toBeTruthy();
    expect(screen.getByText('Please pay $120 for your appointment on May 4, 2026 at 10.00 AM - 10.30 AM')).toBeTruthy();
    expect(screen.getByText('Patient: Pat Patient')).toBeTruthy();
    expect(screen.queryByText('Loading the booking')).toBeNull();
  });

  it('writes cents when the price has them', async () => {
    booking.price = 99.5;
    await openPaymentPage();
    expect(
      screen.getByText('Please pay $99.50 for your appointment on May 4, 2026 at 10.00 AM - 10.30 AM'),
    ).toBeTruthy();
  });

  it.each([
    [404, 'No such booking'],
    [403, 'This booking is not yours'],
  ])('shows a %i on the page, with the server’s message and a way back', async (status, message) => {
    routes['GET /api/bookings/b-1'] = () => json({ message }, status);
    renderWithProviders(<AppRoutes />, { path: '/dashboard/payment/b-1' });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(`This booking could not be loaded: ${message}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Payment' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to My Appointments' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.queryByRole('button', { name: /^Pay \$\d/ })).toBeNull();
    expect(callsTo('POST /api/create-payment-intent')).toEqual([]);
  });

  it('shows a paid booking only as paid, with its receipt: no request to pay, no card form, no payment intent', async () => {
    booking.paid = true;
    await openPaymentPage();
    expect(screen.getByText('This appointment is paid.')).toBeTruthy();
    expect(screen.queryByText(/Please pay/)).toBeNull();
    expect(screen.getByText(`Your appointment on ${booking.appointmentDate} at ${booking.slot}`)).toBeTruthy();
    const shown = await screen.findByRole('article', { name: 'Receipt' });
    const facts = Object.fromEntries(
      within(shown)
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );
    expect(facts).toEqual({
      Treatment: 'Teeth Whitening',
      Appointment: 'May 4, 2026 at 10.00 AM - 10.30 AM',
      Patient: 'Pat Patient, patient@clinic.test',
      'Amount paid': '$120.00',
      'Paid on': expect.stringMatching(/^May 1, 2026, \d{1,2}:30 [AP]M$/),
      Card: 'Visa ending in 4242',
      'Transaction id': 'pi_demo_b1',
    });
    const print = vi.fn();
    window.print = print;
    await userEvent.setup().click(within(shown).getByRole('button', { name: 'Print receipt' }));
    expect(print).toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: /^Pay \$\d/ })).toBeNull();
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to My Appointments' }).getAttribute('href')).toBe('/dashboard');
    expect(callsTo('POST /api/create-payment-intent')).toEqual([]);
  });
});

describe('Payment page: demo payments', () => {
  it('draws the card form at once, asks for a client secret for this booking, and keeps Pay disabled until it is there', async () => {
    const answer = held();
    routes['POST /api/create-payment-intent'] = answer.handler;
    await openPaymentPage();

    // The form paints with the page (its provider is known before the intent): only Pay waits.
    expect(await screen.findByText(DEMO_NOTE)).toBeTruthy();
    expect(screen.getByLabelText('Card number')).toBeTruthy();
    expect(payButton().disabled).toBe(true);
    expect(callsTo('POST /api/create-payment-intent').map((c) => c.body)).toEqual([{ bookingId: 'b-1' }]);

    await answer.release(json(demoIntent));
    await waitFor(() => expect(payButton().disabled).toBe(false));
    const number = screen.getByLabelText<HTMLInputElement>('Card number');
    expect([number.inputMode, number.autocomplete]).toEqual(['numeric', 'cc-number']);
    expect(screen.getByLabelText<HTMLInputElement>('Expiry (MM/YY)').autocomplete).toBe('cc-exp');
    expect(screen.getByLabelText<HTMLInputElement>('CVC').autocomplete).toBe('cc-csc');
  });

  it('pays with the parsed card: disabled while paying, then the transaction id, the payment recorded and no form', async () => {
    const confirmation = held();
    routes['POST /api/demo-payments/confirm'] = confirmation.handler;
    const user = await openPaymentPage();
    await fillDemoCard(user, '4242 4242 4242 4242', '12/34', '123');
    await waitFor(() => expect(payButton().disabled).toBe(false));

    await user.click(payButton());
    expect(payButton().disabled).toBe(true);
    expect(callsTo('POST /api/demo-payments/confirm').map((c) => c.body)).toEqual([
      {
        clientSecret: demoIntent.clientSecret,
        card: { number: '4242424242424242', expMonth: 12, expYear: 34, cvc: '123' },
      },
    ]);
    expect(callsTo('POST /api/payments')).toEqual([]);

    await confirmation.release(json({ paymentIntent: { id: 'pi_demo_b1', status: 'succeeded', amount: 120 } }));
    const status = await screen.findByText('Congrats your payment completed');
    expect(status.closest('[role="status"]')?.textContent).toContain('Your transaction id: pi_demo_b1');
    await waitFor(() =>
      expect(callsTo('POST /api/payments').map((c) => c.body)).toEqual([
        { transactionId: 'pi_demo_b1', price: 120, email: 'patient@clinic.test', bookingId: 'b-1' },
      ]),
    );
    expect(screen.queryByRole('button', { name: /^Pay \$\d/ })).toBeNull();
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to My Appointments' }).getAttribute('href')).toBe('/dashboard');
    expect(document.activeElement).toBe(status.closest('[role="status"]'));
    // The booking is fetched again, so My Appointments and this page now know it is paid.
    await waitFor(() => expect(callsTo('GET /api/bookings/b-1').length).toBeGreaterThanOrEqual(2));
    // Once recorded, the receipt shows under the message.
    expect(await screen.findByRole('article', { name: 'Receipt' })).toBeTruthy();
  });

  it('pays a whole family visit in one payment by default, with a receipt line for each member, or only this booking', async () => {
    booking = { ...booking, familyVisitId: 'fv-1' };
    const milo = {
      ...booking,
      _id: 'b-2',
      patientName: 'Milo Patient',
      patient: 'Milo Patient',
      treatment: 'Dental Check-up',
      price: 45,
    };
    routes['GET /api/bookings?email=patient%40clinic.test'] = () => json([booking, milo]);
    routes['GET /api/bookings/b-2/receipt'] = () =>
      json({ ...receipt, bookingId: 'b-2', patientName: 'Milo Patient', amount: 45 });
    const user = await openPaymentPage();
    const choice = within(await screen.findByRole('group', { name: 'What would you like to pay?' }));
    expect(choice.getByRole<HTMLInputElement>('radio', { name: 'The whole family visit: $165' }).checked).toBe(true);
    expect(choice.getByRole('list', { name: 'The family visit' }).textContent).toContain(
      'Milo Patient, Dental Check-up',
    );
    await waitFor(() =>
      expect(callsTo('POST /api/create-payment-intent').map((c) => c.body)).toEqual([{ familyVisitId: 'fv-1' }]),
    );

    // The page asks for, and the button charges, the amount of the choice (issue 45).
    const asked = () => [
      screen.getByText(/^Please pay /).textContent,
      screen.getByRole('button', { name: /^Pay \$/ }).textContent,
    ];
    expect(asked()).toEqual(['Please pay $165 for your family visit on May 4, 2026: 2 appointments', 'Pay $165']);
    await user.click(choice.getByRole('radio', { name: 'Only Pat Patient’s visit: $120' }));
    await waitFor(() => expect(callsTo('POST /api/create-payment-intent').at(-1)?.body).toEqual({ bookingId: 'b-1' }));
    expect(asked()).toEqual(['Please pay $120 for your appointment on May 4, 2026 at 10.00 AM - 10.30 AM', 'Pay $120']);
    await user.click(choice.getByRole('radio', { name: 'The whole family visit: $165' }));

    await fillDemoCard(user, '4242 4242 4242 4242');
    await waitFor(() => expect(payButton().disabled).toBe(false));
    await user.click(payButton());
    await screen.findByText('Congrats your payment completed');
    expect(
      screen.getByText(
        'You paid $165 for 2 appointments; they are yours, and each receipt is below and on its way by email.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('article', { name: 'Receipt' })).toHaveLength(2));
  });

  it('has My Appointments’ cached list fetched again once paid', async () => {
    routes['GET /api/bookings?email=patient%40clinic.test'] = () => json([booking]);
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <AppRoutes />
        <BookingList />
      </>,
      { path: '/dashboard/payment/b-1' },
    );
    await screen.findByRole('heading', { level: 1, name: 'Payment for Teeth Whitening' });
    await fillDemoCard(user, '4242 4242 4242 4242');
    expect(callsTo('GET /api/bookings?email=patient%40clinic.test').length).toBe(1);
    await user.click(payButton());

    await screen.findByText('Congrats your payment completed');
    await waitFor(() =>
      expect(callsTo('GET /api/bookings?email=patient%40clinic.test').length).toBeGreaterThanOrEqual(2),
    );
  });

  it('takes a four-digit expiry year as a number too', async () => {
    const user = await openPaymentPage();
    await fillDemoCard(user, '4242424242424242', '03 / 2031', '4321');
    await user.click(payButton());
    await screen.findByText('Congrats your payment completed');
    expect((callsTo('POST /api/demo-payments/confirm')[0]!.body as { card: unknown }).card).toEqual({
      number: '4242424242424242',
      expMonth: 3,
      expYear: 2031,
      cvc: '4321',
    });
  });

  it('shows a declined card in red with the provider’s message, records nothing, and lets the patient try again', async () => {
    routes['POST /api/demo-payments/confirm'] = () =>
      json({ acknowledged: false, message: 'Your card was declined.', code: 'card_declined' }, 402);
    const user = await openPaymentPage();
    await fillDemoCard(user, '4000 0000 0000 0002');
    await user.click(payButton());

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Your card was declined.');
    expect(alert.className).toContain('form-error');
    expect(payButton().disabled).toBe(false);
    expect(callsTo('POST /api/payments')).toEqual([]);
    expect(screen.queryByText('Congrats your payment completed')).toBeNull();

    routes['POST /api/demo-payments/confirm'] = () =>
      json({ paymentIntent: { id: 'pi_demo_b1', status: 'succeeded', amount: 120 } });
    const number = screen.getByLabelText('Card number');
    await user.clear(number);
    await user.type(number, '4242 4242 4242 4242');
    await user.click(payButton());
    expect(await screen.findByText('Congrats your payment completed')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says what is missing before asking the server', async () => {
    const user = await openPaymentPage();
    await user.type(await screen.findByLabelText('Card number'), '4242 4242 4242 4242');
    await waitFor(() => expect(payButton().disabled).toBe(false));
    await user.click(payButton());
    expect((await screen.findByRole('alert')).textContent).toBe("Your card's expiration date is incomplete.");
    expect(callsTo('POST /api/demo-payments/confirm')).toEqual([]);
  });

  it('says the payment will be refunded when the booking was cancelled while the card was charged', async () => {
    const message =
      'The booking was cancelled before the payment arrived. The clinic will refund $120.00 to your card.';
    routes['POST /api/payments'] = () =>
      json({ acknowledged: true, insertedId: 'pi_demo_b1', refundDue: true, message });
    const user = await openPaymentPage();
    await fillDemoCard(user, '4242 4242 4242 4242');
    await user.click(payButton());

    const title = await screen.findByText('Your payment will be refunded');
    const status = title.closest('[role="status"]');
    expect(status?.textContent).toContain(message);
    expect(status?.textContent).toContain('Your transaction id: pi_demo_b1');
    expect(screen.queryByText('Congrats your payment completed')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.activeElement).toBe(status);
  });

  it('shows the server’s text when the payment cannot be recorded', async () => {
    routes['POST /api/payments'] = () => json({ acknowledged: false, message: 'This payment has not succeeded' }, 402);
    const user = await openPaymentPage();
    await fillDemoCard(user, '4242 4242 4242 4242');
    await user.click(payButton());

    expect(await screen.findByText('Congrats your payment completed')).toBeTruthy();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('This payment has not succeeded');
    expect(alert.className).toContain('form-error');
  });

  it('shows why no client secret came, and a booking paid meanwhile as paid', async () => {
    routes['POST /api/create-payment-intent'] = () =>
      json({ acknowledged: false, message: 'This booking is already paid' }, 409);
    const reload = held();
    routes['GET /api/bookings/b-1'] = () => {
      routes['GET /api/bookings/b-1'] = reload.handler; // the second load sees the payment made elsewhere
      return json(booking);
    };
    await openPaymentPage();

    expect((await screen.findByRole('alert')).textContent).toBe('This booking is already paid');
    expect(payButton().disabled).toBe(true);
    await waitFor(() => expect(callsTo('GET /api/bookings/b-1').length).toBe(2));
    await reload.release(json({ ...booking, paid: true }));
    expect(await screen.findByText('This appointment is paid.')).toBeTruthy();
    expect(screen.queryByText(/Please pay/)).toBeNull();
    expect(screen.queryByRole('button', { name: /^Pay \$\d/ })).toBeNull();
  });
});

describe('Payment page: Stripe', () => {
  it('loads Stripe.js with the publishable key and keeps Pay disabled until the card element is ready', async () => {
    const fake = createFakeStripe({ readyOnMount: false });
    useStripeProvider(fake);
    await openPaymentPage();

    expect(await screen.findByRole('group', { name: 'Payment details' })).toBeTruthy();
    await waitFor(() => expect(fake.element.mount).toHaveBeenCalled());
    expect(vi.mocked(loadStripe)).toHaveBeenCalledWith('pk_test_clinic');
    expect(screen.queryByText(DEMO_NOTE)).toBeNull();
    expect(payButton().disabled).toBe(true);

    act(() => fake.ready());
    expect(payButton().disabled).toBe(false);
  });

  it('confirms the card with the client secret, then shows the transaction id and records the payment', async () => {
    const fake = createFakeStripe();
    useStripeProvider(fake);
    const user = await openPaymentPage();
    await waitFor(() => expect(payButton().disabled).toBe(false));
    const release = fake.hold();

    await user.click(payButton());
    expect(payButton().disabled).toBe(true);
    expect(fake.stripe.elements).toHaveBeenCalledWith(
      expect.objectContaining({ clientSecret: 'pi_3Stripe123_secret_abc' }),
    );
    expect(fake.confirmPayment).toHaveBeenCalledWith({
      elements: fake.elements,
      confirmParams: {
        return_url: `${window.location.origin}/dashboard/payment/b-1`,
        payment_method_data: { billing_details: { name: 'Pat Patient', email: 'patient@clinic.test' } },
      },
      redirect: 'if_required',
    });

    await act(async () => release());
    const status = await screen.findByText('Congrats your payment completed');
    expect(status.closest('[role="status"]')?.textContent).toContain('Your transaction id: pi_3Stripe123');
    await waitFor(() =>
      expect(callsTo('POST /api/payments').map((c) => c.body)).toEqual([
        { transactionId: 'pi_3Stripe123', price: 120, email: 'patient@clinic.test', bookingId: 'b-1' },
      ]),
    );
    expect(screen.queryByRole('button', { name: /^Pay \$\d/ })).toBeNull();
    expect(callsTo('POST /api/demo-payments/confirm')).toEqual([]);
  });

  it('shows Stripe’s card error in red and enables Pay again', async () => {
    const fake = createFakeStripe();
    useStripeProvider(fake);
    const user = await openPaymentPage();
    await waitFor(() => expect(payButton().disabled).toBe(false));
    fake.decline('Your card has insufficient funds.');

    await user.click(payButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Your card has insufficient funds.');
    expect(alert.className).toContain('form-error');
    expect(payButton().disabled).toBe(false);
    expect(callsTo('POST /api/payments')).toEqual([]);
    expect(screen.queryByText('Congrats your payment completed')).toBeNull();
  });

  it('records a payment Stripe confirmed after leaving the page (a bank, a wallet) when it brings the patient back', async () => {
    const fake = createFakeStripe();
    useStripeProvider(fake);
    await openPaymentPage('/dashboard/payment/b-1?payment_intent=pi_3Stripe123&redirect_status=succeeded');
    expect(await screen.findByText('Congrats your payment completed')).toBeTruthy();
    await waitFor(() =>
      expect(callsTo('POST /api/payments').map((c) => c.body)).toEqual([
        { transactionId: 'pi_3Stripe123', price: 120, email: 'patient@clinic.test', bookingId: 'b-1' },
      ]),
    );
    expect(window.location.search).toBe('');
  });

  it('says so when Stripe brings the patient back without a payment', async () => {
    const fake = createFakeStripe();
    useStripeProvider(fake);
    await openPaymentPage('/dashboard/payment/b-1?payment_intent=pi_3Stripe123&redirect_status=failed');
    expect((await screen.findByRole('alert')).textContent).toBe('The payment did not complete. Please try again.');
    expect(callsTo('POST /api/payments')).toEqual([]);
  });

  it('says so when Stripe.js cannot load', async () => {
    const fake = createFakeStripe();
    useStripeProvider(fake);
    vi.mocked(loadStripe).mockRejectedValue(new Error('Failed to load Stripe.js'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await openPaymentPage();

    expect((await screen.findByRole('alert')).textContent).toBe(
      'The card form could not load (Failed to load Stripe.js). Check your connection and reload the page.',
    );
  });
});

describe('Payment page: offline', () => {
  it('says payment needs a connection and disables Pay while offline, then recovers when back online', async () => {
    const user = await openPaymentPage();
    await screen.findByText(DEMO_NOTE);
    await fillDemoCard(user, '4242 4242 4242 4242');
    await waitFor(() => expect(payButton().disabled).toBe(false));

    online = false;
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(screen.getByText('You are offline. Payment needs a connection.')).toBeTruthy();
    expect(payButton().disabled).toBe(true);

    online = true;
    act(() => void window.dispatchEvent(new Event('online')));
    expect(screen.queryByText('You are offline. Payment needs a connection.')).toBeNull();
    expect(payButton().disabled).toBe(false);

    online = false;
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(screen.getByText('You are offline. Payment needs a connection.')).toBeTruthy();
    expect(payButton().disabled).toBe(true);
    expect(callsTo('POST /api/demo-payments/confirm')).toEqual([]);
  });

  it('pays while navigator.onLine says offline but the server answers (a loopback-only machine)', async () => {
    online = false;
    const user = await openPaymentPage();
    await screen.findByText(DEMO_NOTE);
    expect(screen.queryByText('You are offline. Payment needs a connection.')).toBeNull();
    await fillDemoCard(user, '4242 4242 4242 4242');
    await waitFor(() => expect(payButton().disabled).toBe(false));

    await user.click(payButton());
    expect(await screen.findByText('Congrats your payment completed')).toBeTruthy();
    expect(callsTo('POST /api/demo-payments/confirm')).toHaveLength(1);
  });

  it('says payment needs a connection once a request fails on the network, and disables Pay until one answers', async () => {
    const user = await openPaymentPage();
    await screen.findByText(DEMO_NOTE);
    await fillDemoCard(user, '4242 4242 4242 4242');
    await waitFor(() => expect(payButton().disabled).toBe(false));
    routes['POST /api/demo-payments/confirm'] = () => Promise.reject(new TypeError('Failed to fetch'));

    await user.click(payButton());
    expect(await screen.findByText('You are offline. Payment needs a connection.')).toBeTruthy();
    expect(payButton().disabled).toBe(true);
    expect(callsTo('POST /api/payments')).toEqual([]);

    // Any answer from the server (here the app's own check of /api/health) says the connection is back.
    await act(() => api('/health').catch(() => undefined));
    expect(screen.queryByText('You are offline. Payment needs a connection.')).toBeNull();
    expect(payButton().disabled).toBe(false);
  });

  it('fetches the client secret again when the connection comes back', async () => {
    online = false;
    routes['POST /api/create-payment-intent'] = () => Promise.reject(new TypeError('Failed to fetch'));
    await openPaymentPage();
    await waitFor(() => expect(callsTo('POST /api/create-payment-intent').length).toBe(1));
    expect(screen.getByText('You are offline. Payment needs a connection.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(payButton().disabled).toBe(true);

    routes['POST /api/create-payment-intent'] = () => json(demoIntent);
    online = true;
    act(() => void window.dispatchEvent(new Event('online')));
    expect(await screen.findByText(DEMO_NOTE)).toBeTruthy();
    await waitFor(() => expect(payButton().disabled).toBe(false));
  });

  it('says so instead of an error when the booking cannot load offline', async () => {
    online = false;
    routes['GET /api/bookings/b-1'] = () => Promise.reject(new TypeError('Failed to fetch'));
    renderWithProviders(<AppRoutes />, { path: '/dashboard/payment/b-1' });

    expect(await screen.findByText('You are offline. Payment needs a connection.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();

    routes['GET /api/bookings/b-1'] = () => json(booking);
    online = true;
    act(() => void window.dispatchEvent(new Event('online')));
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment for Teeth Whitening' })).toBeTruthy();
  });
});

describe('Receipt page', () => {
  it('shows a cancelled booking’s receipt with where its refund stands', async () => {
    receipt = { ...receipt, bookingStatus: 'cancelled', refund: { status: 'pending', amount: 120, currency: 'usd' } };
    renderWithProviders(<AppRoutes />, { path: '/dashboard/receipt/b-1' });
    await screen.findByRole('heading', { level: 1, name: 'Your receipt' });
    const shown = await screen.findByRole('article', { name: 'Receipt' });
    expect(within(shown).getByText('May 4, 2026 at 10.00 AM - 10.30 AM (cancelled)')).toBeTruthy();
    expect(within(shown).getByText('$120.00 is being refunded to your card')).toBeTruthy();
    expect(callsTo('GET /api/bookings/b-1')).toEqual([]);
  });

  it('says why when there is no receipt', async () => {
    routes['GET /api/bookings/b-1/receipt'] = () => json({ message: 'This booking has no payment yet' }, 404);
    renderWithProviders(<AppRoutes />, { path: '/dashboard/receipt/b-1' });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The receipt could not be loaded: This booking has no payment yet',
    );
  });
});

describe('Payment page: layout', () => {
  it('sits in the dashboard, under My Appointments', async () => {
    await openPaymentPage();
    const menu = screen.getByRole('navigation', { name: 'Dashboard' });
    expect(within(menu).getByRole('link', { name: 'My Appointments' })).toBeTruthy();
  });
});
