import { unstable_serialize } from 'swr';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessTokenFor } from '../testing/test-utils.tsx';
import { myBookingsKey, myFamilyKey, mySmsKey } from './cache-keys.ts';
import { firstAnswersFallback, firstAnswersInPage } from './first-answers.ts';
import { renderedDataPaths } from './rendered-data-paths.ts';
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
          '/appointmentOptions?date=2026-11-27': [{ _id: 't-1', slots: ['10:00 AM'] }],
          // Not a page's first data, or not the shape its page reads: left for the page to load.
          '/users': [{ _id: 'u-1' }],
          constructor: {},
          '/bookings/b-2': null,
          '/appointmentOptions?date=2026-11-28': { _id: 't-1' },
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
      '/appointmentOptions?date=2026-11-27': [{ _id: 't-1', slots: ['10:00 AM'] }],
    });
    // Another patient's admin status is not read by this patient's page.
    expect(firstAnswersFallback({ email, answers: { '/users/admin/x%40clinic.test': { isAdmin: true } } })).toEqual({});
    // Another patient's list is not this patient's.
    expect(
      firstAnswersFallback({ email: 'other@clinic.test', answers: { '/bookings?email=pat%40clinic.test': list } }),
    ).toEqual({});
  });

  it('are, for My Appointments, every call its sections make but the paged history; for a payment page, its booking, the card provider and the menu’s; for the booking page, the clinic’s today', () => {
    expect(renderedDataPaths('/dashboard', email)).toEqual([
      '/bookings?email=pat%40clinic.test',
      '/users/me/dependants',
      '/users/me/reminders',
      '/users/me/sms',
      '/waitlist',
      '/clinic/policy',
      '/users/admin/pat%40clinic.test',
    ]);
    expect(renderedDataPaths('/dashboard/payment/b%201', email)).toEqual([
      '/bookings/b%201',
      '/payments/provider',
      '/users/admin/pat%40clinic.test',
    ]);
    // 02:00 UTC on the 28th is still the 27th in New York, the clinic's time zone.
    const late = new Date('2026-11-28T02:00:00Z');
    expect(renderedDataPaths('/appointment', email, '', late)).toEqual([
      '/appointmentOptions?date=2026-11-27',
      '/waitlist',
      '/users/me/dependants',
      '/bookings?email=pat%40clinic.test',
    ]);
    // A link that names a day, a time or the family visit: the page reads it itself.
    expect(renderedDataPaths('/appointment', email, '?date=2026-12-01', late)).toEqual([]);
    expect(renderedDataPaths('/review', email)).toEqual([]);
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
  const cookieOn = (path: string) => {
    const previous = location.pathname;
    history.replaceState(null, '', path);
    const value = document.cookie;
    history.replaceState(null, '', previous);
    return value;
  };
  const cookieOnDashboard = () => cookieOn('/dashboard');

  beforeEach(() => {
    localStorage.clear();
    syncSessionCookie();
  });

  it('carries the stored access token to the dashboard’s pages and the booking page only, until it expires', () => {
    const token = accessTokenFor(email);
    localStorage.setItem('accessToken', token);
    syncSessionCookie();
    expect(cookieOnDashboard()).toBe(`clinic_session=${token}`);
    expect(cookieOn('/dashboard/payment/b-1')).toBe(`clinic_session=${token}`);
    expect(cookieOn('/appointment')).toBe(`clinic_session=${token}`);
    // Its paths keep it off the API and the other pages.
    for (const path of ['/api/bookings', '/', '/appointments', '/review']) expect(cookieOn(path), path).toBe('');
    expect(document.cookie).not.toContain('clinic_session');
  });

  it('goes with the token: signed out, or expired', () => {
    localStorage.setItem('accessToken', accessTokenFor(email));
    syncSessionCookie();
    localStorage.removeItem('accessToken');
    syncSessionCookie();
    expect(cookieOnDashboard()).toBe('');
    expect(cookieOn('/appointment')).toBe('');
    localStorage.setItem('accessToken', accessTokenFor(email, { expiresInSeconds: -10 }));
    syncSessionCookie();
    expect(cookieOnDashboard()).toBe('');
    expect(cookieOn('/appointment')).toBe('');
  });
});
