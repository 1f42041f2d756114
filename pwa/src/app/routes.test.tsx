import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, renderWithProviders, stubFetch } from '../testing/test-utils.tsx';
import { AppRoutes } from './routes.tsx';

beforeEach(() => {
  stubFetch((request) =>
    new URL(request.url).pathname === '/api/reviews' ? json([]) : json({ message: 'Not found' }, 404),
  );
});

describe('public layout and routes', () => {
  it('shows Home, Doctors, Appointment, Review and Login in the navigation bar when signed out', () => {
    renderWithProviders(<AppRoutes />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toEqual([
      ['Smile Dental Clinic', '/'],
      ['Home', '/'],
      ['Doctors', '/#doctors'],
      ['Appointment', '/appointment'],
      ['Review', '/review'],
      ['Login', '/login'],
    ]);
    expect(within(nav).queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(within(nav).queryByRole('button', { name: 'Sign Out' })).toBeNull();
  });

  it('opens and closes the mobile menu with an accessible toggle', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />);
    const toggle = screen.getByRole('button', { name: 'Menu' });
    const menu = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(menu).not.toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(menu?.dataset.open).toBe('true');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('shows a not-found page with a way home for an unknown path', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/no-such-page' });
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    // still inside the public layout
    expect(screen.getByRole('contentinfo').textContent).toContain('Copyright © 2022 - All right reserved');

    await user.click(screen.getByRole('link', { name: 'Back to home' }));
    expect(window.location.pathname).toBe('/');
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
    expect(screen.getByText('9.00 am to 5.00pm every day')).toBeTruthy();
  });

  it('renders the home sections in order and the footer columns', () => {
    renderWithProviders(<AppRoutes />);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual([
      'Opening Hours',
      'Visit our location',
      'Contact us now',
      'Our Services',
      'Our doctors',
      'Make an appointment',
      'What Our Patients Says',
      'Stay connected with us',
      'Services',
      'Company',
      'Legal',
    ]);
    expect(screen.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/book');
    // The appointment section: the spec's link to the booking page, the free times beside it.
    expect(screen.getByRole('link', { name: 'Book an appointment' }).getAttribute('href')).toBe('/appointment');
    expect(screen.getByRole('link', { name: 'See free times first' }).getAttribute('href')).toBe('/book');
    expect(screen.getByRole('link', { name: '+1 (555) 010-2026' }).getAttribute('href')).toBe('tel:+15550102026');
    for (const name of ['Fluoride Treatment', 'Cavity Filling', 'Teeth Whitening']) {
      expect(screen.getByRole('heading', { level: 3, name })).toBeTruthy();
    }
    const footer = screen.getByRole('contentinfo');
    const footerLinks = within(footer).getAllByRole('link');
    expect(footerLinks.map((link) => link.textContent)).toEqual([
      'Branding',
      'Design',
      'Marketing',
      'Advertisement',
      'About us',
      'Contact',
      'Jobs',
      'Press kit',
      'Terms of use',
      'Privacy policy',
      'Cookie policy',
    ]);
    expect(footerLinks.every((link) => link.getAttribute('href') === '/')).toBe(true);
  });
});
