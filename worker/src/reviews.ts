import type { Env } from './env.ts';
import { json } from './http.ts';

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
