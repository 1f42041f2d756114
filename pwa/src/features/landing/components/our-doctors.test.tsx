import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, renderWithProviders, stubFetch } from '../../../testing/test-utils.tsx';
import { OurDoctors } from './our-doctors.tsx';

let answerTeam: () => Response | Promise<Response>;

beforeEach(() => {
  answerTeam = () =>
    json([
      { _id: 'd1', name: 'Dr. Ada Okafor', specialty: 'General Dentistry', image: '/api/images/doctors/ada.png' },
      { _id: 'd2', name: 'Dr. Ben Ito', specialty: 'Endodontics', image: '/api/images/doctors/ben.png' },
    ]);
  stubFetch((request) =>
    new URL(request.url).pathname === '/api/team' ? answerTeam() : json({ message: 'Not found' }, 404),
  );
});

describe('Our doctors', () => {
  it('shows each doctor of GET /api/team with their photo, name and specialty, in the #doctors section', async () => {
    renderWithProviders(<OurDoctors />);
    const section = screen.getByRole('region', { name: 'Our doctors' });
    expect(section.id).toBe('doctors');
    const list = await within(section).findByRole('list', { name: 'Our doctors' });
    const cards = within(list).getAllByRole('listitem');
    expect(
      cards.map((card) => [
        within(card).getByRole('heading', { level: 3 }).textContent,
        card.querySelector('p')?.textContent,
      ]),
    ).toEqual([
      ['Dr. Ada Okafor', 'General Dentistry'],
      ['Dr. Ben Ito', 'Endodontics'],
    ]);
    expect(cards[1]!.querySelector('img')?.getAttribute('src')).toBe('/api/images/doctors/ben.png');
  });

  it('says when there are no doctors yet, and when they cannot be loaded', async () => {
    answerTeam = () => json([]);
    const { unmount } = renderWithProviders(<OurDoctors />);
    expect(await screen.findByText('Our doctors will be introduced here soon.')).toBeTruthy();
    unmount();

    answerTeam = () => json({ message: 'The clinic database is unavailable' }, 503);
    renderWithProviders(<OurDoctors />);
    expect(await screen.findByText('Sorry, our doctors could not be loaded.')).toBeTruthy();
  });

  it('tells screen readers while the doctors load', () => {
    answerTeam = () => new Promise<Response>(() => {});
    renderWithProviders(<OurDoctors />);
    expect(screen.getByRole('status').textContent).toBe('Loading our doctors…');
  });
});
