import { unstable_serialize } from 'swr';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessTokenFor } from '../testing/test-utils.tsx';
import { myBookingsKey, myFamilyKey, mySmsKey } from './cache-keys.ts';
import { firstAnswersFallback, firstAnswersInPage, renderedDataPaths } from './first-answers.ts';
import { syncSessionCookie } from './session-cookie.ts';

const email = 'pat@clinic.test';
const list = [{ _id: 'b-1', treatment: 'Teeth Cleaning' }];

describe('the answers a page was rendered with', () => {
  it('become the SWR cache entries the pages read, as their fetchers make them', () => {
    const fallback = firstAnswersFallback(
      {
        email,
        answers: {
          '/bookings?email=pat%40clinic.test': list,
          '/users/me/dependants': [{ _id: 'd-1', name: 'Sam' }],
          '/users/me/sms': { phone: null, smsConsent: false, stopped: false },
          '/clinic/policy': { freeCancellationHours: 24 },
          '/users/admin/pat%40clinic.test': { isAdmin: false },
          '/bookings/b-1': list[0],
          // Not a page's first data, or not the shape its page reads: left for the page to load.
          '/users': [{ _id: 'u-1' }],
          constructor: {},
          '/bookings/b-2': null,
        },
      },
      1234,
    );
    expect(fallback).toEqual({
      [unstable_serialize(myBookingsKey(email))]: { bookings: list, savedAt: 1234, offline: false },
      [unstable_serialize(myFamilyKey(email))]: [{ _id: 'd-1', name: 'Sam' }],
      [unstable_serialize(mySmsKey(email))]: { phone: null, smsConsent: false, stopped: false },
      '/clinic/policy': { freeCancellationHours: 24 },
      '/users/admin/pat%40clinic.test': { isAdmin: false },
      '/bookings/b-1': list[0],
    });
    // Another patient's admin status is not read by this patient's page.
    expect(firstAnswersFallback({ email, answers: { '/users/admin/x%40clinic.test': { isAdmin: true } } })).toEqual({});
    // Another patient's list is not this patient's.
    expect(
      firstAnswersFallback({ email: 'other@clinic.test', answers: { '/bookings?email=pat%40clinic.test': list } }),
    ).toEqual({});
  });

  it('are, for My Appointments, every call its sections make but the paged history; for a payment page, its booking', () => {
    expect(renderedDataPaths('/dashboard', email)).toEqual([
      '/bookings?email=pat%40clinic.test',
      '/users/me/dependants',
      '/users/me/reminders',
      '/users/me/sms',
      '/waitlist',
      '/clinic/policy',
      '/users/admin/pat%40clinic.test',
    ]);
    expect(renderedDataPaths('/dashboard/payment/b%201', email)).toEqual(['/bookings/b%201']);
    expect(renderedDataPaths('/appointment', email)).toEqual([]);
  });

  describe('read from the page', () => {
    const carry = (text: string) => {
      document.body.innerHTML = `<script id="first-answers" type="application/json">${text}</script>`;
    };
    afterEach(() => {
      document.body.innerHTML = '';
    });

    it('for the patient signed in on this device only', () => {
      carry(JSON.stringify({ email, answers: { '/bookings/b-1': list[0] } }));
      expect(firstAnswersInPage('PAT@clinic.test')).toEqual({ email, answers: { '/bookings/b-1': list[0] } });
      expect(firstAnswersInPage('other@clinic.test')).toBeNull();
      expect(firstAnswersInPage(null)).toBeNull();
    });

    it('not when the block is missing or malformed', () => {
      expect(firstAnswersInPage(email)).toBeNull();
      for (const text of ['{', '"text"', '{"email":1,"answers":{}}', `{"email":"${email}"}`]) {
        carry(text);
        expect(firstAnswersInPage(email), text).toBeNull();
      }
    });
  });
});

describe('the session cookie', () => {
  const cookieOnDashboard = () => {
    const previous = location.pathname;
    history.replaceState(null, '', '/dashboard');
    const value = document.cookie;
    history.replaceState(null, '', previous);
    return value;
  };

  beforeEach(() => {
    localStorage.clear();
    syncSessionCookie();
  });

  it('carries the stored access token to the dashboard’s pages only, until it expires', () => {
    const token = accessTokenFor(email);
    localStorage.setItem('accessToken', token);
    syncSessionCookie();
    expect(cookieOnDashboard()).toBe(`clinic_session=${token}`);
    // Its path keeps it off the API and the other pages.
    expect(document.cookie).not.toContain('clinic_session');
  });

  it('goes with the token: signed out, or expired', () => {
    localStorage.setItem('accessToken', accessTokenFor(email));
    syncSessionCookie();
    localStorage.removeItem('accessToken');
    syncSessionCookie();
    expect(cookieOnDashboard()).toBe('');
    localStorage.setItem('accessToken', accessTokenFor(email, { expiresInSeconds: -10 }));
    syncSessionCookie();
    expect(cookieOnDashboard()).toBe('');
  });
});
