import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFirebase } from '../../testing/fake-firebase.ts';
import { json, renderWithProviders, storeSession, stubFetch } from '../../testing/test-utils.tsx';
import { AppRoutes } from '../routes.tsx';

let admins: string[];

beforeEach(() => {
  admins = ['admin@clinic.test'];
  stubFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/api/users/admin/')) {
      return json({ isAdmin: admins.includes(decodeURIComponent(url.pathname.split('/').pop()!)) });
    }
    if (url.pathname === '/api/users') return json([]);
    return json({ message: 'Not found' }, 404);
  });
});

const sideMenuLinks = () =>
  within(screen.getByRole('navigation', { name: 'Dashboard' }))
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);

describe('dashboard layout', () => {
  it('shows My Appointments to a patient, and the navigation bar above', async () => {
    fakeFirebase.signInAs('patient@clinic.test');
    storeSession('patient@clinic.test');
    renderWithProviders(<AppRoutes />, { path: '/dashboard' });
    await screen.findByRole('heading', { level: 1, name: 'My Appointments' });
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(sideMenuLinks()).toEqual([['My Appointments', '/dashboard']]);
  });

  it('adds Schedule, Insights, Recall, All Users, Add A Doctor, Manage Doctors, Treatments, Forms, Clinic hours, Chairs, Specialties, Refunds, Reviews, Activity and Clinic settings for an admin', async () => {
    fakeFirebase.signInAs('admin@clinic.test');
    storeSession('admin@clinic.test');
    renderWithProviders(<AppRoutes />, { path: '/dashboard' });
    await screen.findByRole('heading', { level: 1, name: 'My Appointments' });
    await waitFor(() =>
      expect(sideMenuLinks()).toEqual([
        ['My Appointments', '/dashboard'],
        ['Schedule', '/dashboard/schedule'],
        ['Insights', '/dashboard/insights'],
        ['Recall', '/dashboard/recalls'],
        ['All Users', '/dashboard/all-users'],
        ['Add A Doctor', '/dashboard/add-doctors'],
        ['Manage Doctors', '/dashboard/manage-doctors'],
        ['Treatments', '/dashboard/treatments'],
        ['Forms', '/dashboard/form-templates'],
        ['Clinic hours', '/dashboard/clinic-hours'],
        ['Chairs', '/dashboard/chairs'],
        ['Specialties', '/dashboard/specialties'],
        ['Refunds', '/dashboard/refunds'],
        ['Reviews', '/dashboard/reviews'],
        ['Activity', '/dashboard/activity'],
        ['Clinic settings', '/dashboard/settings'],
      ]),
    );
    const current = within(screen.getByRole('navigation', { name: 'Dashboard' })).getByRole('link', {
      name: 'My Appointments',
    });
    expect(current.getAttribute('aria-current')).toBe('page');
  });

  it.each([
    ['/dashboard/add-doctors', 'Add A Doctor'],
    ['/dashboard/manage-doctors', 'Manage Doctors'],
    ['/dashboard/treatments', 'Treatments'],
    ['/dashboard/clinic-hours', 'Clinic hours and closures'],
    ['/dashboard/chairs', 'Chairs'],
    ['/dashboard/payment/b-42', 'Payment'],
  ])('%s shows its page to an admin', async (path, heading) => {
    fakeFirebase.signInAs('admin@clinic.test');
    storeSession('admin@clinic.test');
    renderWithProviders(<AppRoutes />, { path });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
  });

  it('has one Menu button, in the navigation bar, that opens the drawer with the site’s links too; Escape closes it', async () => {
    fakeFirebase.signInAs('patient@clinic.test');
    storeSession('patient@clinic.test');
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/dashboard' });
    await screen.findByRole('heading', { level: 1, name: 'My Appointments' });

    const toggles = screen.getAllByRole('button', { name: /menu/i });
    expect(toggles).toHaveLength(1);
    const toggle = toggles[0]!;
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Menu' })).toBe(toggle);
    const drawer = screen.getByRole('navigation', { name: 'Dashboard' });
    expect(toggle.getAttribute('aria-controls')).toBe(drawer.id);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(drawer.dataset.open).toBe('true');
    expect(document.activeElement).toBe(within(drawer).getByRole('link', { name: 'My Appointments' }));
    expect(within(drawer).getByRole('link', { name: 'Appointment' }).getAttribute('href')).toBe('/appointment');
    expect(within(drawer).getByRole('button', { name: 'Sign Out' })).toBeTruthy();

    await user.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(drawer.dataset.open).toBe('false');
    expect(within(drawer).queryByRole('link', { name: 'Appointment' })).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });

  it('shows the error screen inside the dashboard layout when a page fails', async () => {
    fakeFirebase.signInAs('admin@clinic.test');
    storeSession('admin@clinic.test');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch((request) => {
      const url = new URL(request.url);
      if (url.pathname.startsWith('/api/users/admin/')) return json({ isAdmin: true });
      return json({ message: 'The clinic database is unavailable' }, 503);
    });
    renderWithProviders(<AppRoutes />, { path: '/dashboard/all-users' });

    expect(await screen.findByRole('heading', { name: 'Something went wrong !!!' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('503');
    expect(screen.getByRole('navigation', { name: 'Dashboard' })).toBeTruthy();
  });
});
