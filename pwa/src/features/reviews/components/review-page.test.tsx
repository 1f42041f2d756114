import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Cache } from 'swr';
import { beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { AppProvider } from '../../../app/provider.tsx';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import { findToast, json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';
import type { ModeratedReview, OwnReview } from '../api/get-own-review.ts';
import type { Review } from '../api/get-reviews.ts';
import { NOT_YET_TEXT, STATUS_TEXT } from './review-page.tsx';

const EMAIL = 'patient@clinic.test';

let reviews: Review[];
let mine: OwnReview;
let posted: { body: unknown; authorization: string | null }[];
let answerPost: (body: { review: string; location: string }) => Response;

const AWAITS_APPROVAL = 'Thank you! Your review will show on the home page once the clinic approves it';

function ownReview(fields: Partial<ModeratedReview>): ModeratedReview {
  return {
    _id: 'r-mine',
    name: 'Jamie Patient',
    img: '',
    review: '',
    location: '',
    status: 'pending',
    version: 1,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...fields,
  };
}

beforeEach(() => {
  reviews = [{ _id: 'r1', name: 'Winson Herry', location: 'California', review: 'Painless and friendly.', img: '' }];
  mine = { canReview: true, review: null };
  posted = [];
  // As the Worker does: the review is stored as pending, and the public list shows approved ones only.
  answerPost = (body) => {
    const created = !mine.review;
    mine = {
      canReview: true,
      review: ownReview({ ...body, status: 'pending', version: (mine.review?.version ?? 0) + 1 }),
    };
    return created
      ? json({ acknowledged: true, insertedId: 'r-mine', status: 'pending', message: AWAITS_APPROVAL }, 201)
      : json({ acknowledged: true, modifiedCount: 1, _id: 'r-mine', status: 'pending', message: AWAITS_APPROVAL });
  };
  stubFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/reviews' && request.method === 'GET') return json(reviews);
    if (url.pathname === '/api/reviews/mine' && request.method === 'GET') return json(mine);
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
  await screen.findByRole('heading', { level: 1, name: 'Review' });
  await screen.findByText(/^(You can write a review|Preview)/);
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

  it('posts the review, says it waits for approval, and keeps it off the home page until then', async () => {
    // A long-lived cache, as in the app: the page refetches what changed.
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
    await screen.findByRole('heading', { level: 1, name: 'Review' });
    await user.type(await screen.findByLabelText('Your review'), '  The cleaning was gentle and quick.  ');
    await user.type(locationField(), 'Boston');
    await user.click(postButton());

    expect(await findToast(AWAITS_APPROVAL)).toBe('success');
    expect(posted).toEqual([
      {
        body: { review: 'The cleaning was gentle and quick.', location: 'Boston' },
        authorization: `Bearer access:${EMAIL}`,
      },
    ]);
    expect(await screen.findByText(STATUS_TEXT.pending)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Edit your review' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Update review' })).toBeTruthy();

    await user.click(screen.getByRole('link', { name: 'Home' }));
    expect((await screen.findAllByText('Painless and friendly.')).length).toBeGreaterThan(0);
    expect(screen.queryByText('The cleaning was gentle and quick.')).toBeNull();
  });

  it('lets the patient edit their review, showing where it stands', async () => {
    mine = {
      canReview: true,
      review: ownReview({ review: 'Good first visit overall.', location: 'Queens', status: 'approved' }),
    };
    const user = await openReviewPage();
    expect(screen.getByText(STATUS_TEXT.approved)).toBeTruthy();
    expect((reviewField() as HTMLTextAreaElement).value).toBe('Good first visit overall.');
    expect((locationField() as HTMLInputElement).value).toBe('Queens');

    await user.clear(reviewField());
    await user.type(reviewField(), 'Even better the second time.');
    await user.click(screen.getByRole('button', { name: 'Update review' }));
    expect(await findToast(AWAITS_APPROVAL)).toBe('success');
    expect(posted.map((p) => p.body)).toEqual([{ review: 'Even better the second time.', location: 'Queens' }]);
    expect(await screen.findByText(STATUS_TEXT.pending)).toBeTruthy();
  });

  it('tells a hidden review’s author it is hidden and can be sent again', async () => {
    mine = {
      canReview: true,
      review: ownReview({ review: 'Something the clinic hid.', location: 'Queens', status: 'hidden' }),
    };
    await openReviewPage();
    expect(screen.getByText(STATUS_TEXT.hidden)).toBeTruthy();
  });

  it('tells a patient with no past appointment why they cannot write one yet, and offers booking', async () => {
    mine = { canReview: false, review: null };
    await openReviewPage();
    expect(screen.getByText(NOT_YET_TEXT)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Book an appointment' }).getAttribute('href')).toBe('/appointment');
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByLabelText('Your review')).toBeNull();
  });
});
