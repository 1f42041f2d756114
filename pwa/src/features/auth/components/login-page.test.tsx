import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import {
  fakeFirebase,
  sendPasswordReset,
  signInWithGoogle,
  signInWithPassword,
  signOutOfFirebase,
} from '../../../testing/fake-firebase.ts';
import { describeRequest, findToast, json, renderWithProviders, stubFetch } from '../../../testing/test-utils.tsx';

let requests: Request[];

beforeEach(() => {
  requests = [];
  stubFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/reviews') return json([]); // the home page's testimonials and doctors
    if (url.pathname === '/api/team') return json([]);
    if (url.pathname === '/api/reviews/mine') return json({ canReview: false, review: null }); // the /review page
    requests.push(request);
    if (url.pathname === '/api/jwt') return json({ accessToken: `access:${url.searchParams.get('email')}` });
    if (url.pathname === '/api/users' && request.method === 'POST')
      return json({ acknowledged: true, insertedId: 'u1' }, 201);
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.addAccount('pat@clinic.test', 'Patient#2026', 'Pat');
});

async function openLogin(path = '/login') {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path });
  await screen.findByRole('heading', { level: 1, name: 'Login' });
  return user;
}

const main = () => within(screen.getByRole('main'));

async function logIn(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  if (email) await user.type(main().getByLabelText('Email'), email);
  if (password) await user.type(main().getByLabelText('Password'), password);
  await user.click(main().getByRole('button', { name: 'Login' }));
}

describe('login page', () => {
  it('has the spec texts: fields, Forgot password?, Login, Create new account, OR and CONTINUE WITH GOOGLE', async () => {
    await openLogin();
    expect(main().getByLabelText('Email').getAttribute('type')).toBe('email');
    expect(main().getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(main().getByRole('button', { name: 'Forgot password?' })).toBeTruthy();
    expect(main().getByRole('link', { name: 'Create new account' }).getAttribute('href')).toBe('/signup');
    expect(main().getByText('OR')).toBeTruthy();
    expect(main().getByRole('button', { name: 'CONTINUE WITH GOOGLE' })).toBeTruthy();
  });

  it('focuses Email first, and carries a chosen time to Create new account', async () => {
    const chosen = '/appointment?date=2026-12-03&treatment=teeth-cleaning';
    await openLogin(`/login?from=${encodeURIComponent(chosen)}`);
    await waitFor(() => expect(document.activeElement).toBe(main().getByLabelText('Email')));
    expect(main().getByRole('link', { name: 'Create new account' }).getAttribute('href')).toBe(
      `/signup?from=${encodeURIComponent(chosen)}`,
    );
    expect(main().getByText(/^One step to book Thursday, Dec 3, 2026:/)).toBeTruthy();
  });

  it('asks for the email and the password when both are empty', async () => {
    const user = await openLogin();
    await logIn(user, '', '');
    expect(await main().findByText('This is email required!')).toBeTruthy();
    expect(main().getByText('This password required!')).toBeTruthy();
    expect(main().getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(requests).toEqual([]);
  });

  it('asks for 6 characters when the password is shorter', async () => {
    const user = await openLogin();
    await logIn(user, 'pat@clinic.test', 'Pat#1');
    expect(await main().findByText('password must be 6 characters')).toBeTruthy();
    expect(main().queryByText('This is email required!')).toBeNull();
    expect(main().queryByText('This password required!')).toBeNull();
    expect(requests).toEqual([]);
  });

  it('signs in, stores the access token for the email and goes back to the page the user came from', async () => {
    const user = await openLogin('/login?from=%2Fappointment%3Fdate%3Dtoday');
    await logIn(user, 'pat@clinic.test', 'Patient#2026');

    await screen.findByRole('heading', { level: 1, name: 'Appointment' });
    expect(`${window.location.pathname}${window.location.search}`).toBe('/appointment?date=today');
    expect(localStorage.getItem('accessToken')).toBe('access:pat@clinic.test');
    const jwt = requests.find((r) => new URL(r.url).pathname === '/api/jwt')!;
    expect(describeRequest(jwt)).toBe('GET /api/jwt?email=pat%40clinic.test');
    expect(jwt.headers.get('Authorization')).toBe('Bearer id-token:pat@clinic.test:0');
    // the navigation bar now shows the signed-in links
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toBeTruthy();
    expect(within(nav).getByRole('button', { name: 'Sign Out' })).toBeTruthy();
  });

  it('goes home when there is no page to go back to', async () => {
    const user = await openLogin();
    await logIn(user, 'pat@clinic.test', 'Patient#2026');
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(localStorage.getItem('accessToken')).toBe('access:pat@clinic.test');
  });

  it.each(['//evil.com', '/\\evil.com', 'https://evil.com/x', 'javascript:alert(1)'])(
    'ignores a return address off this site (%s) and goes home',
    async (from) => {
      const user = await openLogin(`/login?from=${encodeURIComponent(from)}`);
      await logIn(user, 'pat@clinic.test', 'Patient#2026');
      await waitFor(() => expect(localStorage.getItem('accessToken')).toBe('access:pat@clinic.test'));
      await waitFor(() => expect(window.location.href).toBe(`${window.location.origin}/`));
    },
  );

  it('says in red under the form, in plain words, that the email or password is incorrect', async () => {
    const user = await openLogin();
    await logIn(user, 'pat@clinic.test', 'Wrong#Pass1');
    const alert = await main().findByRole('alert');
    expect(alert.textContent).toBe('Email or password is incorrect');
    expect(alert.className).toContain('form-error');
    expect(window.location.pathname).toBe('/login');
    expect(localStorage.getItem('accessToken')).toBeNull();
    // the Login button works again
    expect((main().getByRole('button', { name: 'Login' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('answers an unknown email exactly as a wrong password, so it does not tell who has an account', async () => {
    signInWithPassword.mockRejectedValueOnce(
      Object.assign(new Error('Firebase: Error (auth/user-not-found).'), { code: 'auth/user-not-found' }),
    );
    const user = await openLogin();
    await logIn(user, 'nobody@clinic.test', 'Nobody#2026');
    expect((await main().findByRole('alert')).textContent).toBe('Email or password is incorrect');
  });

  it('signs in with Google, stores the user and the token, and goes back to the original page', async () => {
    fakeFirebase.setGoogleAccount('gina@gmail.test', 'Gina G');
    const user = await openLogin('/login?from=%2Freview');
    await user.click(main().getByRole('button', { name: 'CONTINUE WITH GOOGLE' }));

    await screen.findByRole('heading', { level: 1, name: 'Review' });
    expect(requests.map(describeRequest)).toEqual(['POST /api/users', 'GET /api/jwt?email=gina%40gmail.test']);
    expect(await requests[0]!.clone().json()).toEqual({ name: 'Gina G', email: 'gina@gmail.test' });
    expect(localStorage.getItem('accessToken')).toBe('access:gina@gmail.test');
  });

  /** The Worker answers the token exchange with `status` and `message`. */
  function refuseExchange(status: number, message: string) {
    stubFetch((request) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/reviews') return json([]);
      if (url.pathname === '/api/team') return json([]);
      requests.push(request);
      return url.pathname === '/api/jwt' ? json({ message }, status) : json({ message: 'Not found' }, 404);
    });
  }

  it('when the email belongs to another account (409), says so under the form and leaves Firebase too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    refuseExchange(409, 'An account with this email already exists; contact the clinic');
    const user = await openLogin();
    await logIn(user, 'pat@clinic.test', 'Patient#2026');

    expect((await main().findByRole('alert')).textContent).toBe(
      'An account with this email already exists; contact the clinic',
    );
    expect(signOutOfFirebase).toHaveBeenCalledOnce();
    expect(fakeFirebase.currentUser).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Login' })).toBeTruthy();
    expect(fakeFirebase.verificationMails).toEqual([]);
  });

  it('when the server wants the email verified first (403), mails a link, asks to verify and leaves Firebase', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeFirebase.addAccount('early@clinic.test', 'Early#2026', 'Early Bird', { verified: false });
    const verifyFirst = 'Please verify your email address first: open the link we emailed you, then sign in again';
    refuseExchange(403, verifyFirst);
    const user = await openLogin();
    await logIn(user, 'early@clinic.test', 'Early#2026');

    expect((await main().findByRole('alert')).textContent).toBe(verifyFirst);
    expect(fakeFirebase.verificationMails).toEqual(['early@clinic.test']);
    expect(fakeFirebase.currentUser).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('shows a Google sign-in failure under the form in plain words', async () => {
    signInWithGoogle.mockRejectedValueOnce(new Error('Firebase: Error (auth/popup-closed-by-user).'));
    const user = await openLogin();
    await user.click(main().getByRole('button', { name: 'CONTINUE WITH GOOGLE' }));
    expect((await main().findByRole('alert')).textContent).toBe(
      'The Google sign-in window was closed before you finished signing in',
    );
    expect(requests).toEqual([]);
  });
});

describe('forgot-password modal', () => {
  it('sends the reset email, then confirms, and Ok closes it and returns focus', async () => {
    const user = await openLogin();
    const opener = main().getByRole('button', { name: 'Forgot password?' });
    await user.click(opener);

    const form = screen.getByRole('dialog', { name: 'Put here your email' });
    expect(form.getAttribute('aria-modal')).toBe('true');
    const email = within(form).getByLabelText('Email');
    expect(document.activeElement).toBe(email);
    await user.type(email, 'pat@clinic.test');
    await user.click(within(form).getByRole('button', { name: 'Reset' }));

    const done = await screen.findByRole('dialog', { name: 'Please check your email and reset your password' });
    expect(screen.queryByRole('dialog', { name: 'Put here your email' })).toBeNull();
    const ok = within(done).getByRole('button', { name: 'Ok' });
    expect(document.activeElement).toBe(ok);
    await user.click(ok);

    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('confirms for an email with no account as for any other, so it does not tell who has an account', async () => {
    const user = await openLogin();
    await user.click(main().getByRole('button', { name: 'Forgot password?' }));
    const form = screen.getByRole('dialog', { name: 'Put here your email' });
    await user.type(within(form).getByLabelText('Email'), 'nobody@clinic.test');
    await user.click(within(form).getByRole('button', { name: 'Reset' }));

    expect(await screen.findByRole('dialog', { name: 'Please check your email and reset your password' })).toBeTruthy();
    expect(sendPasswordReset).toHaveBeenCalledWith('nobody@clinic.test');
  });

  it('shows a failed reset in plain words in an error toast and stays on the form', async () => {
    sendPasswordReset.mockRejectedValueOnce(new Error('Firebase: Error (auth/too-many-requests).'));
    const user = await openLogin();
    await user.click(main().getByRole('button', { name: 'Forgot password?' }));
    const form = screen.getByRole('dialog', { name: 'Put here your email' });
    await user.type(within(form).getByLabelText('Email'), 'pat@clinic.test');
    await user.click(within(form).getByRole('button', { name: 'Reset' }));

    expect(await findToast('Too many attempts in a short time; please wait a few minutes and try again')).toBe('error');
    expect(screen.getByRole('dialog', { name: 'Put here your email' })).toBeTruthy();
    expect(screen.queryByText('Please check your email and reset your password')).toBeNull();
  });

  it('starts with the email typed into the login form and closes with Escape', async () => {
    const user = await openLogin();
    await user.type(main().getByLabelText('Email'), 'pat@clinic.test');
    await user.click(main().getByRole('button', { name: 'Forgot password?' }));
    const form = screen.getByRole('dialog', { name: 'Put here your email' });
    expect((within(form).getByLabelText('Email') as HTMLInputElement).value).toBe('pat@clinic.test');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
