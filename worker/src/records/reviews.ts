import type { OwnReview, ReviewModerated, ReviewSaved } from '../../../contract/reviews.ts';
import { pastAppointmentQuery } from '../booking/data/bookings.ts';
import { callerOf, verifiedCallerOf } from '../people/auth.ts';
import { clock } from '../platform/clock.ts';
import { auditEntry } from '../platform/data/audit.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import {
  type ModeratedReviewRow,
  ownReviewQuery,
  publishedReviews,
  reviewExists,
  reviewMove,
  reviewsForModeration,
  type SavedReviewRow,
  saveReviewOf,
  setReviewStatus,
  toModeratedReview,
} from './data/reviews.ts';

const NO_PAST_APPOINTMENT = 'You can write a review after your first appointment at the clinic';

/** GET /api/reviews: the approved reviews, newest first, for the home page testimonials. */
export async function listReviews(_request: Request, env: Env): Promise<Response> {
  return json(await publishedReviews(env.DB));
}

/** GET /api/reviews/mine: whether the signed-in patient may write a review, and theirs with its status. */
export async function getOwnReview(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const [eligible, own] = await env.DB.batch<Record<string, unknown>>([
    pastAppointmentQuery(env, user.id, clock()),
    ownReviewQuery(env.DB, user.id),
  ]);
  const review = own?.results[0] as ModeratedReviewRow | undefined;
  return json({
    canReview: eligible?.results[0]?.yes === 1,
    review: review ? toModeratedReview(review) : null,
  } satisfies OwnReview);
}

/**
 * POST /api/reviews: writes or rewrites the signed-in patient's one review, once they have had an
 * appointment. Name and photo are the account's. A new or changed review waits for an admin's
 * approval; posting the same text again changes nothing. The unique index keeps it to one per
 * patient whatever the timing, and the past-appointment check is part of the same statement.
 */
export async function saveReview(request: Request, env: Env): Promise<Response> {
  const user = verifiedCallerOf(request);
  const body = inputOf(request, 'POST /reviews').body;
  const saved = await saveReviewOf(
    env,
    { id: crypto.randomUUID(), userId: user.id, name: user.name, review: body.review, location: body.location },
    clock(),
  ).first<SavedReviewRow>();
  if (!saved) throw new HttpError(403, NO_PAST_APPOINTMENT);
  if (saved.created) {
    return json(
      {
        acknowledged: true,
        insertedId: saved.id,
        status: saved.status,
        message: AWAITS_APPROVAL,
      } satisfies ReviewSaved,
      201,
    );
  }
  return json({
    acknowledged: true,
    modifiedCount: saved.changed,
    _id: saved.id,
    status: saved.status,
    message: saved.changed ? AWAITS_APPROVAL : 'Your review is unchanged',
  } satisfies ReviewSaved);
}

const AWAITS_APPROVAL = 'Thank you! Your review will show on the home page once the clinic approves it';

/** GET /api/reviews/moderation?status= (admin): every review, or those with one status; pending first. */
export async function listReviewsForModeration(request: Request, env: Env): Promise<Response> {
  const status = inputOf(request, 'GET /reviews/moderation').query.status ?? null;
  return json(await reviewsForModeration(env.DB, status));
}

/**
 * PUT /api/reviews/:id/status (admin): approves or hides a review. `version` is the one the admin
 * read: a review edited since then is not approved unseen (409). A move to another status writes
 * its audit row in the same batch, read just before the change.
 */
export async function moderateReview(request: Request, env: Env): Promise<Response> {
  const admin = callerOf(request);
  const input = inputOf(request, 'PUT /reviews/:id/status');
  const id = input.params.id;
  const body = input.body;
  const move = reviewMove(id, body.status, body.version);
  const [, updated] = await env.DB.batch([
    auditEntry(
      env.DB,
      {
        actor: admin,
        action: body.status === 'approved' ? 'review.approved' : 'review.hidden',
        target: { type: 'review', id, name: move.name },
        before: { status: move.status },
        after: { status: body.status },
      },
      move.moves,
    ),
    setReviewStatus(env.DB, id, body.status, body.version),
  ]);
  const row = updated?.results[0] as { name: string } | undefined;
  if (row)
    return json({
      acknowledged: true,
      modifiedCount: 1,
      message: `The review by ${row.name} is ${body.status}`,
    } satisfies ReviewModerated);
  if (!(await reviewExists(env.DB, id))) throw new HttpError(404, 'No such review');
  throw new HttpError(409, 'This review was edited after you loaded it; read the new text before you decide');
}
