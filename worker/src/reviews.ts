import * as v from 'valibot';
import { requireVerifiedUser } from './auth.ts';
import type { Env } from './env.ts';
import { json, readJson, text } from './http.ts';

const NewReview = v.object({
  review: v.pipe(text('review', 1000), v.minLength(10, 'review must be at least 10 characters')),
  location: text('location', 100),
});

interface ReviewRow {
  id: string;
  name: string;
  img: string;
  review: string;
  location: string;
}

const toReview = (row: ReviewRow) => ({
  _id: row.id,
  name: row.name,
  img: row.img,
  review: row.review,
  location: row.location,
});

/** GET /api/reviews: the newest reviews, for the home page testimonials. */
export async function listReviews(_request: Request, env: Env): Promise<Response> {
  const { results } = await env.DB.prepare(
    'SELECT id, name, img, review, location FROM reviews ORDER BY created_at DESC, id LIMIT 30',
  ).all<ReviewRow>();
  return json(results.map(toReview));
}

/** POST /api/reviews: a signed-in patient's review; name and photo come from their profile. */
export async function createReview(request: Request, env: Env): Promise<Response> {
  const user = await requireVerifiedUser(request, env);
  const body = await readJson(request, NewReview);
  const profile = await env.DB.prepare('SELECT photo_url FROM users WHERE id = ?1').bind(user.id).first<{ photo_url: string | null }>();
  const id = crypto.randomUUID();
  await env.DB.prepare('INSERT INTO reviews (id, user_id, name, img, review, location) VALUES (?1, ?2, ?3, ?4, ?5, ?6)')
    .bind(id, user.id, user.name, profile?.photo_url ?? '', body.review, body.location)
    .run();
  return json({ acknowledged: true, insertedId: id }, 201);
}
