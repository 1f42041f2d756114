import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Cache } from 'swr';
import { beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { AppProvider } from '../../../app/provider.tsx';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import { findToast, json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';
import type { Review } from '../api/get-reviews.ts';
import './review-page.tsx';

const EMAIL = 'patient@clinic.test';

let reviews: Review[];
let posted: { body: unknown; authorization: string | null }[];
let answerPost: (body: { review: string; location: string }) => Response;

beforeEach(() => {
  reviews = [{ _id: 'r1', name: 'Winson Herry', location: 'California', review: 'Painless and friendly.', img: '' }];
  posted = [];
  answerPost = (body) => {
    reviews = [{ _id: 'r-new', name: 'Jamie Patient', img: '', ...body }, ...reviews];
    return json({ acknowledged: true, insertedId: 'r-new' }, 201);
  };
  stubFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/reviews' && request.method === 'GET') return json(reviews);
    if (url.pathname === '/api/reviews' && request.method === 'POST') {
      const body = (await request.json()) as { review: string; location: string };
      posted.push({ body, authorization: request.headers.get('Authorization') });
      return answerPost(body);
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs(EMAIL, 'Jamie Patient');
  storeSession(EMAIL);
});

async function openReviewPage() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/review' });
  await screen.findByRole('heading', { level: 1, name: 'Review' }, { timeout: 10_000 });
  return user;
}

const reviewField = () => screen.getByLabelText('Your review');
const locationField = () => screen.getByLabelText('Location');
const postButton = () => screen.getByRole('button', { name: 'Post review' });

describe('Review page', () => {
  it('shows how the review will appear: the text, the location and the patient’s name with initials', async () => {
    const user = await openReviewPage();
    expect(screen.getByRole('form', { name: 'Write a review' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Write a review' })).toBeTruthy();
    expect(screen.getByText('Jamie Patient')).toBeTruthy();
    expect(screen.getByText('JP')).toBeTruthy();
    await user.type(reviewField(), 'Gentle and quick.');
    await user.type(locationField(), 'Boston');
    expect(screen.getByText('Gentle and quick.')).toBeTruthy();
    expect(screen.getByText('Boston')).toBeTruthy();
  });

  it('asks for a review of 10 to 1000 characters and a location, and sends nothing until then', async () => {
    const user = await openReviewPage();
    await user.click(postButton());
    expect(await screen.findByText('review must be at least 10 characters')).toBeTruthy();
    expect(screen.getByText('location is required')).toBeTruthy();
    expect(reviewField().getAttribute('aria-invalid')).toBe('true');

    await user.type(reviewField(), '   short   ');
    await user.type(locationField(), '   ');
    await user.click(postButton());
    expect(await screen.findByText('review must be at least 10 characters')).toBeTruthy();
    expect(screen.getByText('location is required')).toBeTruthy();

    await user.clear(reviewField());
    await user.click(reviewField());
    await user.paste('x'.repeat(1001));
    await user.clear(locationField());
    await user.click(locationField());
    await user.paste('y'.repeat(101));
    await user.click(postButton());
    expect(await screen.findByText('review must be at most 1000 characters')).toBeTruthy();
    expect(screen.getByText('location must be at most 100 characters')).toBeTruthy();
    expect(posted).toEqual([]);
  });

  it("shows the server's message in an error toast when the review is refused", async () => {
    answerPost = () => json({ acknowledged: false, message: 'review must be at most 1000 characters' }, 400);
    const user = await openReviewPage();
    await user.type(reviewField(), 'A very friendly team.');
    await user.type(locationField(), 'Boston');
    await user.click(postButton());
    expect(await findToast('review must be at most 1000 characters')).toBe('error');
    expect(window.location.pathname).toBe('/review');
    expect((postButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it('posts the review, thanks the patient and shows it in the home page testimonials', async () => {
    // A long-lived cache, as in the app: only a refetch after posting brings the new review to the home page.
    const cache = new Map();
    window.history.replaceState(null, '', '/');
    render(
      <AppProvider swr={{ provider: () => cache as Cache, dedupingInterval: 60_000, shouldRetryOnError: false }}>
        <Router>
          <AppRoutes />
        </Router>
      </AppProvider>,
    );
    const user = userEvent.setup();
    expect((await screen.findAllByText('Painless and friendly.')).length).toBeGreaterThan(0);

    await user.click(screen.getByRole('link', { name: 'Review' }));
    await screen.findByRole('heading', { level: 1, name: 'Review' }, { timeout: 10_000 });
    await user.type(reviewField(), '  The cleaning was gentle and quick.  ');
    await user.type(locationField(), 'Boston');
    await user.click(postButton());

    expect(await findToast('Thank you for your review!')).toBe('success');
    expect(posted).toEqual([
      { body: { review: 'The cleaning was gentle and quick.', location: 'Boston' }, authorization: `Bearer access:${EMAIL}` },
    ]);
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect((await screen.findAllByText('The cleaning was gentle and quick.')).length).toBeGreaterThan(0);
  });
});
