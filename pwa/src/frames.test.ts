import { describe, expect, it } from 'vitest';
import { frameFileFor } from './frames.ts';

describe('frameFileFor: the frame the service worker answers a navigation with', () => {
  it.each([
    ['/login', 'frames/login.html'],
    ['/signup', 'frames/signup.html'],
    ['/appointment', 'frames/appointment.html'],
    ['/dashboard', 'frames/dashboard.html'],
    ['/dashboard/payment/b-123', 'frames/dashboard-payment-id.html'],
  ])('%s has its frame, %s', (pathname, file) => {
    expect(frameFileFor(pathname)).toBe(file);
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
    expect(frameFileFor(pathname)).toBeUndefined();
  });
});
