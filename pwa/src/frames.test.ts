import { describe, expect, it } from 'vitest';
import { framedPathOf, frameName } from '../../contract/frames.ts';

describe('framedPathOf: the frame the Worker and the service worker answer a navigation with', () => {
  it.each([
    ['/login', 'frames/login.html'],
    ['/signup', 'frames/signup.html'],
    ['/appointment', 'frames/appointment.html'],
    ['/dashboard', 'frames/dashboard.html'],
    ['/dashboard/payment/b-123', 'frames/dashboard-payment-id.html'],
  ])('%s has its frame, %s', (pathname, file) => {
    const path = framedPathOf(pathname);
    expect(path && `${frameName(path)}.html`).toBe(file);
  });

  it.each([
    '/',
    '/review',
    '/dashboard/schedule',
    '/dashboard/payment',
    '/dashboard/payment/a/b',
    '/login/x',
    '/dashboardx',
  ])('%s has none (the shell, or the landing page)', (pathname) => {
    expect(framedPathOf(pathname)).toBeUndefined();
  });
});
