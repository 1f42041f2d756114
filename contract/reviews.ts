import * as v from 'valibot';
import { count, Inserted, Modified } from './answers.ts';
import { multilineText, text } from './fields.ts';

/** A testimonial as the home page shows it. */
export const Review = v.strictObject({
  _id: v.string(),
  name: v.string(),
  img: v.string(),
  review: v.string(),
  location: v.string(),
});
export type Review = v.InferOutput<typeof Review>;

export const REVIEW_STATUSES = ['pending', 'approved', 'hidden'] as const;
export const ReviewStatus = v.picklist(REVIEW_STATUSES);
export type ReviewStatus = v.InferOutput<typeof ReviewStatus>;

/** A review with what only its author and admins see. */
export const ModeratedReview = v.strictObject({
  ...Review.entries,
  status: ReviewStatus,
  /** Goes up with every edit; an admin's decision names the version they read. */
  version: count,
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type ModeratedReview = v.InferOutput<typeof ModeratedReview>;

/** GET /api/reviews/mine: whether the patient may write a review (a past appointment), and theirs. */
export const OwnReview = v.strictObject({ canReview: v.boolean(), review: v.nullable(ModeratedReview) });
export type OwnReview = v.InferOutput<typeof OwnReview>;

/** POST /api/reviews: what a patient writes; the server adds their name and photo from their profile. */
export const NewReview = v.object({
  review: v.pipe(multilineText('review', 1000), v.minLength(10, 'review must be at least 10 characters')),
  location: text('location', 100),
});
export type NewReview = v.InferInput<typeof NewReview>;

/** A first review (201), or the patient's review rewritten or unchanged (200); either waits for approval. */
export const ReviewSaved = v.union([
  v.strictObject({ ...Inserted.entries, status: ReviewStatus, message: v.string() }),
  v.strictObject({ ...Modified.entries, _id: v.string(), status: ReviewStatus }),
]);
export type ReviewSaved = v.InferOutput<typeof ReviewSaved>;

/** GET /api/reviews/moderation?status=: every review, or those with one status. */
export const ModerationQuery = v.object({
  status: v.optional(v.picklist(REVIEW_STATUSES, 'status must be "pending", "approved" or "hidden"')),
});

export const QueuedReview = v.strictObject({ ...ModeratedReview.entries, email: v.nullable(v.string()) });
export type QueuedReview = v.InferOutput<typeof QueuedReview>;

/** PUT /api/reviews/:id/status: `version` is the one the admin read (409 when it was edited since). */
export const Moderation = v.object({
  status: v.picklist(['approved', 'hidden'], 'status must be "approved" or "hidden"'),
  version: v.pipe(v.number('version is required and must be a number'), v.integer('version must be a whole number')),
});
export type Moderation = v.InferInput<typeof Moderation>;

export const ReviewModerated = Modified;
export type ReviewModerated = Modified;
