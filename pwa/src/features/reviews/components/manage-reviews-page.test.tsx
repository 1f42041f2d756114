import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import { findToast, json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';
import type { QueuedReview } from '../api/get-review-queue.ts';

let reviews: QueuedReview[];
let decisions: { id: string; body: unknown }[];
let answerPut: (id: string, body: { status: 'approved' | 'hidden'; version: number }) => Response;

function review(id: string, fields: Partial<QueuedReview>): QueuedReview {
  return {
    _id: id,
    name: 'Pat Patient',
    email: 'pat@example.com',
    img: '',
    review: 'Kind and careful staff.',
    location: 'Queens',
    status: 'pending',
    version: 1,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...fields,
  };
}

/** As the Worker orders them: pending first. */
const ordered = () => ['pending', 'approved', 'hidden'].flatMap((status) => reviews.filter((r) => r.status === status));

beforeEach(() => {
  reviews = [
    review('r-pat', {}),
    review('r-sam', { name: 'Sam Second', email: 'sam@example.com', review: 'Quick check-up, no waiting.' }),
    review('r-win', {
      name: 'Winson Herry',
      email: null,
      review: 'My smile has never looked better.',
      status: 'approved',
    }),
    review('r-spam', {
      name: 'Clinic Admin',
      email: 'spam@example.com',
      review: 'Buy cheap pills here.',
      status: 'hidden',
    }),
  ];
  decisions = [];
  answerPut = (id, body) => {
    const found = reviews.find((r) => r._id === id)!;
    found.status = body.status;
    return json({ acknowledged: true, modifiedCount: 1, message: `The review by ${found.name} is ${body.status}` });
  };
  stubFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/api/users/admin/')) return json({ isAdmin: true });
    if (url.pathname === '/api/reviews/moderation') return json(ordered());
    if (url.pathname === '/api/reviews') return json(reviews.filter((r) => r.status === 'approved'));
    const status = url.pathname.match(/^\/api\/reviews\/([^/]+)\/status$/);
    if (status && request.method === 'PUT') {
      const body = (await request.json()) as { status: 'approved' | 'hidden'; version: number };
      decisions.push({ id: decodeURIComponent(status[1]!), body });
      return answerPut(decodeURIComponent(status[1]!), body);
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

async function openReviews() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/dashboard/reviews' });
  await screen.findByRole('heading', { level: 1, name: 'Reviews' });
  await screen.findByRole('heading', { level: 2, name: /^Waiting for approval/ });
  return user;
}

const section = (name: RegExp) => within(screen.getByRole('region', { name }));
const card = (name: string) => within(screen.getByRole('article', { name }));

describe('Reviews (admin)', () => {
  it('lists the reviews waiting for approval first, then the published and the hidden ones', async () => {
    await openReviews();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Waiting for approval (2)',
      'On the home page (1)',
      'Hidden (1)',
    ]);
    expect(
      section(/^Waiting for approval/)
        .getAllByRole('article')
        .map((a) => within(a).getByRole('heading').textContent),
    ).toEqual(['Pat Patient', 'Sam Second']);
    expect(card('Pat Patient').getByText('Kind and careful staff.')).toBeTruthy();
    expect(card('Pat Patient').getByText(/pat@example\.com · Queens · written Nov 20, 2026/)).toBeTruthy();
    expect(card('Pat Patient').getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(card('Pat Patient').getByRole('button', { name: 'Hide' })).toBeTruthy();
    expect(card('Winson Herry').queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(card('Clinic Admin').queryByRole('button', { name: 'Hide' })).toBeNull();
  });

  it('approves a review with the version read, says so, and moves focus to the next one waiting', async () => {
    const user = await openReviews();
    await user.click(card('Pat Patient').getByRole('button', { name: 'Approve' }));
    expect(await findToast('The review by Pat Patient is approved')).toBe('success');
    expect(decisions).toEqual([{ id: 'r-pat', body: { status: 'approved', version: 1 } }]);
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'On the home page (2)' })).toBeTruthy());
    expect(section(/^On the home page/).getByRole('article', { name: 'Pat Patient' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('article', { name: 'Sam Second' })));
  });

  it('hides a review from the keyboard, and focus returns to the heading when none is left waiting', async () => {
    reviews = reviews.filter((r) => r._id !== 'r-sam');
    const user = await openReviews();
    card('Pat Patient').getByRole('button', { name: 'Hide' }).focus();
    await user.keyboard('{Enter}');
    expect(await findToast('The review by Pat Patient is hidden')).toBe('success');
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Hidden (2)' })).toBeTruthy());
    expect(screen.getByText('No review is waiting for approval.')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Reviews' })),
    );
  });

  it('shows the server’s message when the review was edited meanwhile, and reloads it', async () => {
    answerPut = (id) => {
      const found = reviews.find((r) => r._id === id)!;
      Object.assign(found, { review: 'A sneaky new text.', version: 2 });
      return json(
        {
          acknowledged: false,
          message: 'This review was edited after you loaded it; read the new text before you decide',
        },
        409,
      );
    };
    const user = await openReviews();
    await user.click(card('Pat Patient').getByRole('button', { name: 'Approve' }));
    expect(await findToast('This review was edited after you loaded it; read the new text before you decide')).toBe(
      'error',
    );
    expect(await card('Pat Patient').findByText('A sneaky new text.')).toBeTruthy();
    expect(section(/^Waiting for approval/).getByRole('article', { name: 'Pat Patient' })).toBeTruthy();
  });
});
