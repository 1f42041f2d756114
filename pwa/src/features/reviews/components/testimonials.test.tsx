import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, stubFetch, stubMediaQueries } from '../../../testing/test-utils.tsx';
import { Testimonials } from './testimonials.tsx';

const reviews = [
  {
    _id: 'r1',
    name: 'Winson Herry',
    location: 'California',
    review: 'Painless and friendly.',
    img: '/api/images/winson',
  },
  { _id: 'r2', name: 'Hanna Scott', location: 'Texas', review: 'Spotless clinic.', img: '' },
  { _id: 'r3', name: 'Omar Khan', location: 'Ohio', review: 'Booked in a minute.', img: '/api/images/omar' },
  { _id: 'r4', name: 'Lia Chen', location: 'Oregon', review: 'Great whitening.', img: '/api/images/lia' },
  { _id: 'r5', name: 'Sam Ortiz', location: 'Maine', review: 'Kind staff.', img: '/api/images/sam' },
];

const WIDE = '(min-width: 1024px)';
const MEDIUM = '(min-width: 640px)';
const REDUCED = '(prefers-reduced-motion: reduce)';

/** Labels of the slides a user can currently see (hidden slides and clones are aria-hidden). */
const visibleSlides = () => screen.getAllByRole('group').map((slide) => slide.getAttribute('aria-label'));

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

async function renderTestimonials() {
  renderWithProviders(<Testimonials />);
  await advance(0);
  screen.getByRole('region', { name: 'Patient testimonials' });
}

beforeEach(() => {
  vi.useFakeTimers();
  stubFetch((request) =>
    new URL(request.url).pathname === '/api/reviews' ? json(reviews) : json({ message: 'Not found' }, 404),
  );
});

afterEach(() => {
  vi.useRealTimers();
});

describe('testimonials', () => {
  it('shows the headings and the reviews from /api/reviews, with initials when there is no photo', async () => {
    stubMediaQueries([WIDE, MEDIUM]);
    renderWithProviders(<Testimonials />);
    expect(screen.getByText('Testimonial')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'What Our Patients Says' })).toBeTruthy();
    expect(screen.getByText('Loading testimonials…')).toBeTruthy();

    await advance(0);
    const carousel = screen.getByRole('region', { name: 'Patient testimonials' });
    expect(carousel.getAttribute('aria-roledescription')).toBe('carousel');
    expect(visibleSlides()).toEqual(['1 of 5', '2 of 5', '3 of 5']);
    expect(screen.getAllByRole('group')[0]?.getAttribute('aria-roledescription')).toBe('slide');
    const [first, second] = screen.getAllByRole('group');
    expect(first?.textContent).toContain('Painless and friendly.');
    expect(first?.textContent).toContain('Winson Herry');
    expect(first?.textContent).toContain('California');
    expect(first?.querySelector('img')?.getAttribute('src')).toBe('/api/images/winson');
    expect(second?.querySelector('img')).toBeNull();
    expect(second?.textContent).toContain('HS');
  });

  it('advances one slide every 2000 ms and loops back to the first', async () => {
    stubMediaQueries([WIDE, MEDIUM]);
    await renderTestimonials();

    await advance(1999);
    expect(visibleSlides()).toEqual(['1 of 5', '2 of 5', '3 of 5']);
    await advance(1);
    expect(visibleSlides()).toEqual(['2 of 5', '3 of 5', '4 of 5']);
    await advance(2000 * 3);
    expect(visibleSlides()).toEqual(['5 of 5', '1 of 5', '2 of 5']);
    await advance(2000);
    expect(visibleSlides()).toEqual(['1 of 5', '2 of 5', '3 of 5']);
    await advance(2000);
    expect(visibleSlides()).toEqual(['2 of 5', '3 of 5', '4 of 5']);
  });

  it('shows fewer slides on narrow screens', async () => {
    stubMediaQueries([MEDIUM]);
    await renderTestimonials();
    expect(visibleSlides()).toEqual(['1 of 5', '2 of 5']);
    await advance(2000);
    expect(visibleSlides()).toEqual(['2 of 5', '3 of 5']);
  });

  it('shows one slide on phones and moves with the previous and next buttons', async () => {
    stubMediaQueries([]);
    await renderTestimonials();
    expect(visibleSlides()).toEqual(['1 of 5']);
    fireEvent.click(screen.getByRole('button', { name: 'Previous testimonial' }));
    await advance(500);
    expect(visibleSlides()).toEqual(['5 of 5']);
    fireEvent.click(screen.getByRole('button', { name: 'Next testimonial' }));
    await advance(500);
    expect(visibleSlides()).toEqual(['1 of 5']);
  });

  it('pauses while the pointer is over it', async () => {
    stubMediaQueries([WIDE, MEDIUM]);
    await renderTestimonials();
    const carousel = screen.getByRole('region', { name: 'Patient testimonials' });

    fireEvent.mouseEnter(carousel);
    await advance(6000);
    expect(visibleSlides()).toEqual(['1 of 5', '2 of 5', '3 of 5']);

    fireEvent.mouseLeave(carousel);
    await advance(2000);
    expect(visibleSlides()).toEqual(['2 of 5', '3 of 5', '4 of 5']);
  });

  it('pauses while keyboard focus is inside it', async () => {
    stubMediaQueries([WIDE, MEDIUM]);
    await renderTestimonials();
    const next = screen.getByRole('button', { name: 'Next testimonial' });

    act(() => next.focus());
    await advance(6000);
    expect(visibleSlides()).toEqual(['1 of 5', '2 of 5', '3 of 5']);

    act(() => next.blur());
    await advance(2000);
    expect(visibleSlides()).toEqual(['2 of 5', '3 of 5', '4 of 5']);
  });

  it('can be stopped and started with the rotation button', async () => {
    stubMediaQueries([WIDE, MEDIUM]);
    await renderTestimonials();
    fireEvent.click(screen.getByRole('button', { name: 'Stop automatic slide show' }));
    await advance(6000);
    expect(visibleSlides()).toEqual(['1 of 5', '2 of 5', '3 of 5']);
    fireEvent.click(screen.getByRole('button', { name: 'Start automatic slide show' }));
    await advance(2000);
    expect(visibleSlides()).toEqual(['2 of 5', '3 of 5', '4 of 5']);
  });

  it('does not autoplay when the user prefers reduced motion', async () => {
    stubMediaQueries([WIDE, MEDIUM, REDUCED]);
    await renderTestimonials();
    await advance(6000);
    expect(visibleSlides()).toEqual(['1 of 5', '2 of 5', '3 of 5']);
    expect(screen.queryByRole('button', { name: 'Stop automatic slide show' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Next testimonial' }));
    expect(visibleSlides()).toEqual(['2 of 5', '3 of 5', '4 of 5']);
  });

  it('says so when the reviews cannot be loaded', async () => {
    stubMediaQueries([WIDE, MEDIUM]);
    stubFetch(() => json({ message: 'Internal error' }, 500));
    renderWithProviders(<Testimonials />);
    await advance(0);
    expect(screen.getByText('Sorry, the testimonials could not be loaded.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Patient testimonials' })).toBeNull();
  });
});
