import * as v from 'valibot';
import { text } from './fields.ts';

/**
 * POST /api/feeds: a new private calendar feed (RFC 5545) for the caller, or with `doctorId` (an
 * admin) for that doctor; the one before stops working. DELETE /api/feeds?doctorId= ends it.
 */
export const FeedRequest = v.object({ doctorId: v.optional(text('doctorId', 100)) });
export type FeedRequest = v.InferInput<typeof FeedRequest>;
export const FeedQuery = v.object({ doctorId: v.optional(text('doctorId', 100)) });

/** The feed's address, to paste into a calendar app, and as a webcal:// link that subscribes in one tap. */
export const FeedCreated = v.strictObject({ acknowledged: v.literal(true), url: v.string(), webcal: v.string() });
export type FeedCreated = v.InferOutput<typeof FeedCreated>;
