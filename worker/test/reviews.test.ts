import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_REVIEWS } from '../../scripts/seed-data.ts';
import { pastAppointmentQuery } from '../src/booking/data/bookings.ts';
import { accessTokenFor, addPastVisit, addUser, bearer, call, seed } from './helpers.ts';

type PublicReview = { _id: string; name: string; review: string; location: string; img: string };
type ModeratedReview = PublicReview & { status: string; version: number; email: string | null };

const NO_PAST_APPOINTMENT = {
  acknowledged: false,
  message: 'You can write a review after your first appointment at the clinic',
};
const AWAITS_APPROVAL = 'Thank you! Your review will show on the home page once the clinic approves it';

let admin: Record<string, string>;
let patients = 0;

beforeAll(async () => {
  await seed();
  admin = bearer(await accessTokenFor('admin@clinic.test'));
});

/** A new patient of their own, signed in; with a past appointment unless told otherwise. */
async function newPatient(pastVisit = true): Promise<{ email: string; auth: Record<string, string> }> {
  patients += 1;
  const email = `reviewer${patients}@example.com`;
  await addUser(email, `Reviewer ${patients}`);
  if (pastVisit) await addPastVisit(email);
  return { email, auth: bearer(await accessTokenFor(email)) };
}

function post(auth: Record<string, string>, body: Record<string, unknown>) {
  return call('/api/reviews', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function moderate(auth: Record<string, string>, id: string, body: Record<string, unknown>) {
  return call(`/api/reviews/${id}/status`, {
    method: 'PUT',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const published = async () => (await call('/api/reviews')).json<PublicReview[]>();
const queue = async (query = '') =>
  (await call(`/api/reviews/moderation${query}`, { headers: admin })).json<ModeratedReview[]>();
const mine = async (auth: Record<string, string>) =>
  (await call('/api/reviews/mine', { headers: auth })).json<{ canReview: boolean; review: ModeratedReview | null }>();
const reviewsOf = (email: string) =>
  env.DB.prepare('SELECT r.review, r.status FROM reviews r JOIN users u ON u.id = r.user_id WHERE u.email = ?1')
    .bind(email)
    .all();

describe('who may write a review', () => {
  it('refuses a patient with no past appointment (403) and stores nothing', async () => {
    const { email, auth } = await newPatient(false);
    const response = await post(auth, { review: 'Lovely people, great care.', location: 'Boston' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(NO_PAST_APPOINTMENT);
    expect((await reviewsOf(email)).results).toEqual([]);
    expect(await mine(auth)).toEqual({ canReview: false, review: null });
  });

  it('counts only an active appointment whose start has passed on the clinic’s clock', async () => {
    const { email } = await newPatient(false);
    const user = (await env.DB.prepare('SELECT id FROM users WHERE email = ?1').bind(email).first<string>('id'))!;
    const insert = (date: string, slot: string, status = 'active', paid = 1, holdUntil: string | null = null) =>
      env.DB.prepare(
        `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, user_id, patient_name, email,
           price_cents, paid, status, hold_until)
         VALUES (?1, 'teeth-cleaning', 'Teeth Cleaning', ?2, ?3, ?9, 30, ?4, 'R', ?5, 8000, ?6, ?7, ?8)`,
      )
        .bind(crypto.randomUUID(), date, slot, user, email, paid, status, holdUntil, startOf(slot))
        .run();
    // "04.30 PM - 05.00 PM" starts 990 minutes after midnight.
    const startOf = (slot: string) =>
      ((Number(slot.slice(0, 2)) % 12) + (slot.slice(6, 8) === 'PM' ? 12 : 0)) * 60 + Number(slot.slice(3, 5));
    const hadOne = async (utc: string) =>
      (await pastAppointmentQuery(env, user, new Date(utc)).first<number>('yes')) === 1;

    await insert('2026-12-01', '09.00 AM - 09.30 AM', 'cancelled');
    await insert('2026-11-30', '10.00 AM - 10.30 AM', 'active', 0, '2026-11-30T14:30:00.000Z'); // released unpaid
    expect(await hadOne('2026-12-05T12:00:00Z')).toBe(false);

    await insert('2026-12-01', '04.30 PM - 05.00 PM');
    // 20:00 UTC is 3 pm in New York: not yet (by UTC's clock 4.30 pm would have passed).
    expect(await hadOne('2026-12-01T20:00:00Z')).toBe(false);
    expect(await hadOne('2026-12-01T21:30:00Z')).toBe(true);
    // Late evening in New York is already the next day in UTC.
    expect(await hadOne('2026-12-02T03:00:00Z')).toBe(true);
  });
});

describe('writing and editing one’s review', () => {
  it('stores it as pending, under the account’s name, and keeps it off the home page', async () => {
    const { auth } = await newPatient();
    const response = await post(auth, {
      review: 'The whitening was quick and painless.',
      location: 'Queens',
      name: 'Clinic Admin',
      status: 'approved',
    });
    expect(response.status).toBe(201);
    const body = await response.json<{ insertedId: string }>();
    expect(body).toEqual({
      acknowledged: true,
      insertedId: expect.any(String),
      status: 'pending',
      message: AWAITS_APPROVAL,
    });
    expect((await published()).map((r) => r._id)).not.toContain(body.insertedId);
    expect(await mine(auth)).toEqual({
      canReview: true,
      review: expect.objectContaining({
        _id: body.insertedId,
        name: `Reviewer ${patients}`,
        review: 'The whitening was quick and painless.',
        location: 'Queens',
        status: 'pending',
        version: 1,
      }),
    });
  });

  it('keeps one review per patient: posting again rewrites it, and a rewrite waits for approval again', async () => {
    const { email, auth } = await newPatient();
    const { insertedId } = await (
      await post(auth, { review: 'First words about my visit.', location: 'Queens' })
    ).json<{ insertedId: string }>();
    expect((await moderate(admin, insertedId, { status: 'approved', version: 1 })).status).toBe(200);
    expect((await published()).map((r) => r.review)).toContain('First words about my visit.');

    const same = await post(auth, { review: 'First words about my visit.', location: 'Queens' });
    expect(await same.json()).toEqual({
      acknowledged: true,
      modifiedCount: 0,
      _id: insertedId,
      status: 'approved',
      message: 'Your review is unchanged',
    });

    const edit = await post(auth, { review: 'Second thoughts: even better.', location: 'Brooklyn' });
    expect(edit.status).toBe(200);
    expect(await edit.json()).toEqual({
      acknowledged: true,
      modifiedCount: 1,
      _id: insertedId,
      status: 'pending',
      message: AWAITS_APPROVAL,
    });
    const publicTexts = (await published()).map((r) => r.review);
    expect(publicTexts).not.toContain('First words about my visit.');
    expect(publicTexts).not.toContain('Second thoughts: even better.');
    expect((await reviewsOf(email)).results).toEqual([{ review: 'Second thoughts: even better.', status: 'pending' }]);
    expect((await mine(auth)).review).toMatchObject({ _id: insertedId, version: 2, status: 'pending' });
  });

  it('stores one review when a patient posts 10 at once', async () => {
    const { email, auth } = await newPatient();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(auth, { review: `Review number ${i} of my visit.`, location: 'Queens' }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(9);
    expect((await reviewsOf(email)).results).toHaveLength(1);
  });

  it('refuses bad input with 400 and anonymous callers with 401', async () => {
    const { auth } = await newPatient();
    expect((await post(auth, { review: 'short', location: 'Queens' })).status).toBe(400);
    expect((await post(auth, { review: 'Long enough review text.', location: '' })).status).toBe(400);
    expect((await post({}, { review: 'Long enough review text.', location: 'Queens' })).status).toBe(401);
    expect((await call('/api/reviews/mine')).status).toBe(401);
  });
});

describe('approving and hiding reviews (admin)', () => {
  it('lists the published reviews: the seed’s, and only approved ones', async () => {
    const list = await published();
    for (const seeded of SEED_REVIEWS) expect(list.map((r) => r._id)).toContain(seeded.id);
    const statuses = await env.DB.prepare("SELECT id FROM reviews WHERE status != 'approved'").all<{ id: string }>();
    for (const { id } of statuses.results) expect(list.map((r) => r._id)).not.toContain(id);
  });

  it('lists reviews for an admin, pending first, with the author’s email; filters by status', async () => {
    const { email, auth } = await newPatient();
    const { insertedId } = await (
      await post(auth, { review: 'Waiting for the admin to read.', location: 'Queens' })
    ).json<{ insertedId: string }>();
    const all = await queue();
    const firstApproved = all.findIndex((r) => r.status !== 'pending');
    expect(all.slice(firstApproved).every((r) => r.status !== 'pending')).toBe(true);
    expect(all.find((r) => r._id === insertedId)).toMatchObject({ status: 'pending', email, version: 1 });
    expect((await queue('?status=approved')).every((r) => r.status === 'approved')).toBe(true);
    expect((await queue('?status=approved')).map((r) => r._id)).toEqual(
      expect.arrayContaining(SEED_REVIEWS.map((r) => r.id)),
    );
    const bad = await call('/api/reviews/moderation?status=everything', { headers: admin });
    expect(bad.status).toBe(400);
  });

  it('publishes a review the admin approves, newest first, and takes it down when hidden', async () => {
    const { auth } = await newPatient();
    const { insertedId } = await (
      await post(auth, { review: 'Approve me, please, I mean it.', location: 'Queens' })
    ).json<{ insertedId: string }>();
    const approved = await moderate(admin, insertedId, { status: 'approved', version: 1 });
    expect(await approved.json()).toEqual({
      acknowledged: true,
      modifiedCount: 1,
      message: `The review by Reviewer ${patients} is approved`,
    });
    expect((await published())[0]).toMatchObject({
      _id: insertedId,
      name: `Reviewer ${patients}`,
      review: 'Approve me, please, I mean it.',
    });

    const hidden = await moderate(admin, insertedId, { status: 'hidden', version: 1 });
    expect(await hidden.json()).toMatchObject({
      modifiedCount: 1,
      message: `The review by Reviewer ${patients} is hidden`,
    });
    expect((await published()).map((r) => r._id)).not.toContain(insertedId);
    expect((await mine(auth)).review).toMatchObject({ status: 'hidden' });
  });

  it('does not approve a review edited after the admin read it (409), and changes nothing', async () => {
    const { auth } = await newPatient();
    const { insertedId } = await (await post(auth, { review: 'A harmless first version.', location: 'Queens' })).json<{
      insertedId: string;
    }>();
    await post(auth, { review: 'A sneaky second version.', location: 'Queens' });
    const stale = await moderate(admin, insertedId, { status: 'approved', version: 1 });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({
      acknowledged: false,
      message: 'This review was edited after you loaded it; read the new text before you decide',
    });
    expect((await mine(auth)).review).toMatchObject({ status: 'pending', version: 2 });
  });

  it('is for admins only, and refuses an unknown review or status', async () => {
    const { auth } = await newPatient();
    const { insertedId } = await (
      await post(auth, { review: 'Let me approve my own review.', location: 'Queens' })
    ).json<{ insertedId: string }>();
    expect((await moderate(auth, insertedId, { status: 'approved', version: 1 })).status).toBe(403);
    expect((await call('/api/reviews/moderation', { headers: auth })).status).toBe(403);
    expect((await moderate(admin, 'no-such-review', { status: 'approved', version: 1 })).status).toBe(404);
    expect((await moderate(admin, insertedId, { status: 'pending', version: 1 })).status).toBe(400);
    expect((await moderate(admin, insertedId, { status: 'approved' })).status).toBe(400);
    expect((await mine(auth)).review).toMatchObject({ status: 'pending' });
  });
});
