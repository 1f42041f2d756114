import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase, reloadUser, sendVerificationEmail, watchAuthState } from '../../../testing/fake-firebase.ts';
import {
  describeRequest,
  findToast,
  json,
  renderWithProviders,
  storeSession,
  stubFetch,
} from '../../../testing/test-utils.tsx';

const EMAIL = 'pat@clinic.test';
let requests: Request[];

beforeEach(() => {
  requests = [];
  stubFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/reviews') return json([]);
    if (url.pathname === '/api/team') return json([]);
    if (url.pathname === '/api/bookings') return json([]);
    if (url.pathname.startsWith('/api/users/admin/')) return json({ isAdmin: false });
    requests.push(request);
    if (url.pathname === '/api/jwt') return json({ accessToken: 'access:verified' });
    return json({ message: 'Not found' }, 404);
  });
});

/** A signed-in user whose email is not verified, as the app left them. */
function signedInUnverified() {
  fakeFirebase.signInAs(EMAIL, 'Pat', { verified: false });
  storeSession(EMAIL, 'access:unverified', { emailVerified: false });
}

const banner = () => screen.findByRole('region', { name: 'Verify your email' });

describe('verify-your-email banner', () => {
  it('shows on the landing page from the session hint, without loading Firebase', async () => {
    signedInUnverified();
    renderWithProviders(<AppRoutes />, { path: '/' });
    const shown = await banner();
    expect(shown.textContent).toContain(`We sent a link to ${EMAIL}`);
    expect(within(shown).getByRole('button', { name: 'Resend email' })).toBeTruthy();
    expect(within(shown).getByRole('button', { name: "I've verified" })).toBeTruthy();
    // Under the header, before the page.
    const header = screen.getByRole('banner');
    expect(header.compareDocumentPosition(shown) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(shown.compareDocumentPosition(screen.getByRole('main')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(watchAuthState).not.toHaveBeenCalled();
  });

  it('shows in the dashboard layout too, where the user can still see their bookings', async () => {
    signedInUnverified();
    renderWithProviders(<AppRoutes />, { path: '/dashboard' });
    expect(await screen.findByText('You have no appointments yet.')).toBeTruthy();
    expect(await banner()).toBeTruthy();
  });

  it('is not shown to a verified user nor to a visitor', async () => {
    fakeFirebase.signInAs(EMAIL, 'Pat');
    storeSession(EMAIL);
    const { unmount } = renderWithProviders(<AppRoutes />, { path: '/dashboard' });
    await screen.findByText('You have no appointments yet.');
    expect(screen.queryByRole('region', { name: 'Verify your email' })).toBeNull();
    unmount();
    localStorage.clear();
    renderWithProviders(<AppRoutes />, { path: '/' });
    await screen.findByRole('link', { name: 'Login' });
    expect(screen.queryByRole('region', { name: 'Verify your email' })).toBeNull();
  });

  it('Resend email mails a new link and says so; a refusal is told in plain words', async () => {
    signedInUnverified();
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/' });
    const resend = within(await banner()).getByRole('button', { name: 'Resend email' });

    await user.click(resend);
    expect(await findToast(`We sent a new link to ${EMAIL}`)).toBe('success');
    expect(fakeFirebase.verificationMails).toEqual([EMAIL]);

    sendVerificationEmail.mockRejectedValueOnce(new Error('Firebase: Error (auth/too-many-requests).'));
    await user.click(resend);
    expect(await findToast('Too many emails were sent just now; please wait a few minutes and try again')).toBe(
      'error',
    );
  });

  it("I've verified before opening the link: the banner stays and says so; nothing is exchanged", async () => {
    signedInUnverified();
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/' });
    await user.click(within(await banner()).getByRole('button', { name: "I've verified" }));
    expect(await findToast(`Your email is not verified yet: open the link we sent to ${EMAIL}, then try again`)).toBe(
      'error',
    );
    expect(reloadUser).toHaveBeenCalledOnce();
    expect(requests).toEqual([]);
    expect(await banner()).toBeTruthy();
  });

  it("I've verified after opening the link: a fresh ID token is exchanged and the banner goes", async () => {
    signedInUnverified();
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/' });
    const shown = await banner();
    fakeFirebase.verifyEmail(EMAIL);

    await user.click(within(shown).getByRole('button', { name: "I've verified" }));

    await waitFor(() => expect(screen.queryByRole('region', { name: 'Verify your email' })).toBeNull());
    expect(requests.map(describeRequest)).toEqual(['GET /api/jwt?email=pat%40clinic.test']);
    // A forced refresh: the ID token minted after the link was opened says the email is verified.
    expect(requests[0]!.headers.get('Authorization')).toBe('Bearer id-token:pat@clinic.test:1');
    expect(localStorage.getItem('accessToken')).toBe('access:verified');
    expect(JSON.parse(localStorage.getItem('session')!)).toMatchObject({ email: EMAIL, emailVerified: true });
    expect(await findToast('Thank you: your email is verified')).toBe('success');
  });
});
