import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_REVIEWS } from '../../../scripts/seed-data.ts';
import {
  type ModeratedReviewRow,
  ownReviewQuery,
  publishedReviews,
  reviewExists,
  reviewsForModeration,
  type SavedReviewRow,
  saveReviewOf,
  setReviewStatus,
  toModeratedReview,
} from '../../src/records/data/reviews.ts';
import { addPastVisit, addUser, seed } from '../helpers.ts';

const db = env.DB;
let patients = 0;

async function patient(withVisit: boolean) {
  patients += 1;
  const email = `reviewer${patients}@example.com`;
  const id = await addUser(email, `Reviewer ${patients}`);
  if (withVisit) await addPastVisit(email);
  return { id, name: `Reviewer ${patients}`, email };
}

const save = (author: { id: string; name: string }, review: string, location = 'Boston') =>
  saveReviewOf(
    env,
    { id: crypto.randomUUID(), userId: author.id, name: author.name, review, location },
    new Date(),
  ).first<SavedReviewRow>();
const ownReview = async (userId: string) => {
  const row = await ownReviewQuery(db, userId).first<ModeratedReviewRow>();
  return row && toModeratedReview(row);
};

beforeAll(seed);

describe('reviews: statements against D1', () => {
  it('publishes only approved reviews', async () => {
    const published = await publishedReviews(db);
    expect(published.length).toBe(SEED_REVIEWS.length);
    const author = await patient(true);
    await save(author, 'Waiting for approval.');
    expect((await publishedReviews(db)).map((r) => r._id)).toEqual(published.map((r) => r._id));
  });

  it('saves nothing for a patient without a past appointment', async () => {
    const newcomer = await patient(false);
    expect(await save(newcomer, 'I have not been yet.')).toBeNull();
    expect(await ownReview(newcomer.id)).toBeNull();
  });

  it('writes one review per patient: new, unchanged, then changed and waiting again with the next version', async () => {
    const author = await patient(true);
    const created = await save(author, 'Gentle and quick.');
    expect(created).toMatchObject({ status: 'pending', created: 1, changed: 1 });
    await setReviewStatus(db, created!.id, 'approved', 1).run();

    expect(await save(author, 'Gentle and quick.')).toEqual({
      id: created!.id,
      status: 'approved',
      created: 0,
      changed: 0,
    });
    expect(await save(author, 'Gentle, quick and kind.')).toEqual({
      id: created!.id,
      status: 'pending',
      created: 0,
      changed: 1,
    });
    expect(await ownReview(author.id)).toMatchObject({
      _id: created!.id,
      review: 'Gentle, quick and kind.',
      status: 'pending',
      version: 2,
    });
  });

  it('sets a status only at the version the admin read', async () => {
    const author = await patient(true);
    const { id } = (await save(author, 'First words.'))!;
    await save(author, 'Second words.');
    expect(await setReviewStatus(db, id, 'approved', 1).first()).toBeNull();
    expect(await setReviewStatus(db, id, 'approved', 2).first()).toEqual({ name: author.name });
    expect(await reviewExists(db, id)).toBe(true);
    expect(await reviewExists(db, 'no-such-review')).toBe(false);
  });

  it('lists reviews for moderation pending first, with their author’s email, or those of one status', async () => {
    const all = await reviewsForModeration(db, null);
    const rank = { pending: 0, approved: 1, hidden: 2 };
    expect(all.map((r) => rank[r.status])).toEqual(all.map((r) => rank[r.status]).sort());
    expect(all.some((r) => r.email?.startsWith('reviewer'))).toBe(true);
    const approved = await reviewsForModeration(db, 'approved');
    expect(approved.length).toBeGreaterThan(0);
    expect(approved.every((r) => r.status === 'approved')).toBe(true);
  });
});
