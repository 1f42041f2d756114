import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { navigate } from 'wouter/use-browser-location';
import { AppRoutes } from '../../../app/routes.tsx';
import { notify } from '../../../lib/notify.ts';
import { createAccount, fakeFirebase, sendVerificationEmail, setDisplayName } from '../../../testing/fake-firebase.ts';
import { describeRequest, json, renderWithProviders, stubFetch } from '../../../testing/test-utils.tsx';

let requests: Request[];
/** Called once per request the server sees (its call order is comparable with the other spies'). */
let serverSaw: Mock<(request: string) => void>;

beforeEach(() => {
  requests = [];
  serverSaw = vi.fn();
  stubFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/reviews') return json([]); // the home page's testimonials and doctors
    if (url.pathname === '/api/team') return json([]);
    requests.push(request);
    serverSaw(describeRequest(request));
    if (url.pathname === '/api/jwt') return json({ accessToken: `access:${url.searchParams.get('email')}` });
    if (url.pathname === '/api/users' && request.method === 'POST')
      return json({ acknowledged: true, insertedId: 'u1' }, 201);
    return json({ message: 'Not found' }, 404);
  });
});

const main = () => within(screen.getByRole('main'));

async function openSignUp() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/signup' });
  await screen.findByRole('heading', { level: 1, name: 'Sign Up' });
  return user;
}

async function signUp(
  user: ReturnType<typeof userEvent.setup>,
  values: { name?: string; email?: string; password?: string },
) {
  if (values.name) await user.type(main().getByLabelText('Name'), values.name);
  if (values.email) await user.type(main().getByLabelText('Email'), values.email);
  if (values.password) await user.type(main().getByLabelText('Password'), values.password);
  await user.click(main().getByRole('button', { name: 'Sign Up' }));
}

describe('sign up page', () => {
  it('has the spec texts: Name, Email, Password, Sign Up, Login, OR and CONTINUE WITH GOOGLE', async () => {
    await openSignUp();
    expect(main().getByLabelText('Name')).toBeTruthy();
    expect(main().getByLabelText('Email').getAttribute('type')).toBe('email');
    expect(main().getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(main().getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    expect(main().getByText('OR')).toBeTruthy();
    expect(main().getByRole('button', { name: 'CONTINUE WITH GOOGLE' })).toBeTruthy();
  });

  it('focuses Name first, and links to how the clinic keeps the data', async () => {
    await openSignUp();
    await waitFor(() => expect(document.activeElement).toBe(main().getByLabelText('Name')));
    expect(main().getByRole('link', { name: 'Privacy and your data' }).getAttribute('href')).toBe('/privacy');
  });

  it('keeps a time chosen on /book: says so, carries it to Login, and goes back to it with the verification link', async () => {
    const chosen = '/appointment?date=2026-12-03&treatment=teeth-cleaning&start=10:00&doctor=dr-ben';
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: `/signup?from=${encodeURIComponent(chosen)}` });
    await screen.findByRole('heading', { level: 1, name: 'Sign Up' });
    expect(main().getByRole('status').textContent).toBe(
      'One step to book Thursday, Dec 3, 2026 at 10.00 AM: sign in or create your account, and the booking opens with this time chosen.',
    );
    expect(main().getByRole('link', { name: 'Login' }).getAttribute('href')).toBe(
      `/login?from=${encodeURIComponent(chosen)}`,
    );
    await signUp(user, { name: 'Pat', email: 'pat@clinic.test', password: 'Patient#2026' });
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe(chosen));
    expect(sendVerificationEmail).toHaveBeenCalledWith(chosen);
  });

  it('signs up without a password: a mailed link makes the account, signs in and opens the chosen time', async () => {
    const chosen = '/appointment?date=2026-12-03&treatment=teeth-cleaning';
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: `/signup?from=${encodeURIComponent(chosen)}` });
    await screen.findByRole('heading', { level: 1, name: 'Sign Up' });
    await user.type(main().getByLabelText('Name'), 'Lina Link');
    await user.type(main().getByLabelText('Email'), 'lina@example.com');
    await user.click(main().getByRole('button', { name: 'Email me a link instead (no password)' }));
    expect(await main().findByText(/^We sent a sign-in link to lina@example.com\./)).toBeTruthy();
    expect(createAccount).not.toHaveBeenCalled();
    expect(fakeFirebase.signInLinks).toEqual([
      { email: 'lina@example.com', landing: `/login?from=${encodeURIComponent(chosen)}` },
    ]);

    // The link opens the login page with its one-time code: signed in, the account saved, on to the time.
    await act(async () => {
      navigate(`/login?from=${encodeURIComponent(chosen)}&mode=signIn&oobCode=abc&apiKey=k`);
    });
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe(chosen));
    const saved = requests.find((r) => new URL(r.url).pathname === '/api/users' && r.method === 'POST');
    expect(await saved?.clone().json()).toEqual({ name: 'Lina Link', email: 'lina@example.com' });
    expect(fakeFirebase.currentUser?.emailVerified).toBe(true);
    expect(localStorage.getItem('accessToken')).toBe('access:lina@example.com');
  });

  it('asks for the name, the email and the password when all are empty', async () => {
    const user = await openSignUp();
    await signUp(user, {});
    expect(await main().findByText('name is required')).toBeTruthy();
    expect(main().getByText('email is required')).toBeTruthy();
    expect(main().getByText('password is required')).toBeTruthy();
    expect(createAccount).not.toHaveBeenCalled();
  });

  it.each([
    ['Ab#1', 'password must be 6 characters'],
    ['abcdef', 'password must be strong'],
    ['ABCDEF#1', 'password must be strong'], // no lowercase
    ['abcdef#1', 'password must be strong'], // no uppercase
    ['Abcdef#x', 'password must be strong'], // no digit
    ['Abcdef12', 'password must be strong'], // none of ! @ # $ & *
    ['Abcdef1%', 'password must be strong'], // % is not one of them
  ])('refuses the password %s with "%s"', async (password, message) => {
    const user = await openSignUp();
    await signUp(user, { name: 'Pat', email: 'pat@clinic.test', password });
    expect(await main().findByText(message)).toBeTruthy();
    expect(main().queryByText('name is required')).toBeNull();
    expect(main().queryByText('email is required')).toBeNull();
    expect(createAccount).not.toHaveBeenCalled();
  });

  it.each(['Abcde1!', 'Abcde1@', 'Abcde1#', 'Abcde1$', 'Abcde1&', 'Abcde1*'])(
    'accepts the strong password %s',
    async (password) => {
      const user = await openSignUp();
      await signUp(user, { name: 'Pat', email: 'pat@clinic.test', password });
      await waitFor(() => expect(createAccount).toHaveBeenCalledWith('pat@clinic.test', password));
      expect(main().queryByText('password must be strong')).toBeNull();
    },
  );

  it('creates the account, toasts, sets the name, stores the user, gets and stores a token, then goes home, in that order', async () => {
    const toast = vi.spyOn(notify, 'success');
    const tokenWhenNavigating: (string | null)[] = [];
    const user = await openSignUp();
    const replaceState = history.replaceState.bind(history);
    const navigation = vi.spyOn(history, 'replaceState').mockImplementation((...args) => {
      tokenWhenNavigating.push(localStorage.getItem('accessToken'));
      replaceState(...args);
    });

    await signUp(user, { name: 'Pat Smith', email: 'pat@clinic.test', password: 'Patient#2026' });

    await waitFor(() => expect(window.location.pathname).toBe('/'));
    await screen.findByText('Create your account');

    const steps: [string, number][] = [
      ['create account', createAccount.mock.invocationCallOrder[0]!],
      ["toast 'Create your account'", toast.mock.invocationCallOrder[0]!],
      ['set display name', setDisplayName.mock.invocationCallOrder[0]!],
      ...serverSaw.mock.calls.map(([request], i): [string, number] => [
        request,
        serverSaw.mock.invocationCallOrder[i]!,
      ]),
      ['navigate home', navigation.mock.invocationCallOrder[0]!],
    ];
    expect(steps.sort((a, b) => a[1] - b[1]).map(([step]) => step)).toEqual([
      'create account',
      "toast 'Create your account'",
      'set display name',
      'POST /api/users',
      'GET /api/jwt?email=pat%40clinic.test',
      'navigate home',
    ]);
    // The spec's words, with what they mean beside them.
    expect(toast).toHaveBeenCalledWith(
      'Create your account',
      'Your account is created; we emailed you a link to verify your address.',
    );
    expect(setDisplayName).toHaveBeenCalledWith('Pat Smith');
    expect(await requests[0]!.clone().json()).toEqual({ name: 'Pat Smith', email: 'pat@clinic.test' });
    expect(requests[0]!.headers.get('Authorization')).toBe('Bearer id-token:pat@clinic.test:0');
    expect(requests[1]!.headers.get('Authorization')).toBe('Bearer id-token:pat@clinic.test:0');
    expect(tokenWhenNavigating).toEqual(['access:pat@clinic.test']);
    expect(fakeFirebase.accounts.get('pat@clinic.test')?.displayName).toBe('Pat Smith');
  });

  it('mails a verification link to the new address, and the verify-your-email banner shows', async () => {
    const user = await openSignUp();
    await signUp(user, { name: 'Pat Smith', email: 'pat@clinic.test', password: 'Patient#2026' });

    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(fakeFirebase.verificationMails).toEqual(['pat@clinic.test']);
    expect(sendVerificationEmail.mock.invocationCallOrder[0]).toBeGreaterThan(
      setDisplayName.mock.invocationCallOrder[0]!,
    );
    const banner = await screen.findByRole('region', { name: 'Verify your email' });
    expect(banner.textContent).toContain('We sent a link to pat@clinic.test');
    expect(JSON.parse(localStorage.getItem('session')!)).toMatchObject({ emailVerified: false });
  });

  it('when the email belongs to another account (409), shows the server’s message and leaves Firebase', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch((request) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/reviews') return json([]);
      if (url.pathname === '/api/team') return json([]);
      requests.push(request);
      return url.pathname === '/api/users'
        ? json({ acknowledged: false, message: 'An account with this email already exists; contact the clinic' }, 409)
        : json({ message: 'Not found' }, 404);
    });
    const user = await openSignUp();
    await signUp(user, { name: 'Pat', email: 'pat@clinic.test', password: 'Patient#2026' });

    expect((await main().findByRole('alert')).textContent).toBe(
      'An account with this email already exists; contact the clinic',
    );
    expect(requests.map(describeRequest)).toEqual(['POST /api/users']);
    expect(fakeFirebase.currentUser).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(window.location.pathname).toBe('/signup');
  });

  it('a patient the front desk booked by phone is told, not in red, to verify the address to get their record', async () => {
    const waits =
      'The clinic already has your record from a booking by phone. Open the link we emailed you to confirm this address is yours, then sign in: your appointments will be there.';
    stubFetch((request) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/reviews' || url.pathname === '/api/team') return json([]);
      return url.pathname === '/api/users'
        ? json({ acknowledged: false, message: waits, recordWaitsForVerification: true }, 403)
        : json({ message: 'Not found' }, 404);
    });
    const user = await openSignUp();
    await signUp(user, { name: 'Pat', email: 'pat@clinic.test', password: 'Patient#2026' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Check your email' })).toBeTruthy();
    expect(main().getByRole('status').textContent).toBe(waits);
    expect(main().queryByRole('alert')).toBeNull();
    expect(main().getByRole('link', { name: 'Go to Login' }).getAttribute('href')).toBe('/login');
    expect(sendVerificationEmail).toHaveBeenCalled();
  });

  it('says what a strong password is before it is asked for', async () => {
    await openSignUp();
    const password = main().getByLabelText('Password');
    const hint = main().getByText(
      'At least 6 characters, with an uppercase and a lowercase letter, a digit and one of ! @ # $ & *',
    );
    expect(password.getAttribute('aria-describedby')).toBe(hint.id);
  });

  it('shows a provider error below the password field in plain words, in red, and logs it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeFirebase.addAccount('pat@clinic.test', 'Patient#2026');
    const user = await openSignUp();
    await signUp(user, { name: 'Pat', email: 'pat@clinic.test', password: 'Patient#2026' });

    const alert = await main().findByRole('alert');
    expect(alert.textContent).toBe('An account with this email already exists');
    expect(alert.className).toContain('form-error');
    const password = main().getByLabelText('Password');
    expect(password.compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(
      alert.compareDocumentPosition(main().getByRole('button', { name: 'Sign Up' })) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'Firebase: Error (auth/email-already-in-use).' }),
    );
    expect(window.location.pathname).toBe('/signup');
    expect(requests).toEqual([]);
  });

  it('signs up with Google, naming a user without a display name after their email, and goes home', async () => {
    fakeFirebase.setGoogleAccount('newcomer@gmail.test', null);
    const user = await openSignUp();
    await user.click(main().getByRole('button', { name: 'CONTINUE WITH GOOGLE' }));

    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(requests.map(describeRequest)).toEqual(['POST /api/users', 'GET /api/jwt?email=newcomer%40gmail.test']);
    expect(await requests[0]!.clone().json()).toEqual({ name: 'newcomer', email: 'newcomer@gmail.test' });
    expect(localStorage.getItem('accessToken')).toBe('access:newcomer@gmail.test');
  });
});
