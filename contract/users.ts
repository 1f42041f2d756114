import * as v from 'valibot';
import { Deleted, Inserted, Modified } from './answers.ts';
import { StrandedBooking } from './bookings.ts';
import { email, page, text } from './fields.ts';
import { LANGUAGES } from './languages.ts';

/** GET /api/jwt?email=: the email the Firebase ID token (in Authorization: Bearer) belongs to. */
export const AccessTokenQuery = v.object({ email: v.pipe(v.string(), v.minLength(1, 'email is required')) });

export const AccessToken = v.strictObject({ accessToken: v.string() });
export type AccessToken = v.InferOutput<typeof AccessToken>;

/** POST /api/users: the signed-up user; a role in the body is ignored. */
export const NewUser = v.object({ name: text('name', 100), email: email('email') });
export type NewUser = v.InferInput<typeof NewUser>;

/** A new account (201), or the existing one updated (200, with a message). */
export const UserSaved = v.union([Inserted, Modified]);
export type UserSaved = v.InferOutput<typeof UserSaved>;

/** GET/PUT /api/users/me/language: the language of the patient's mails, texts and calendar files. */
export const LanguageSetting = v.strictObject({
  language: v.picklist(LANGUAGES, `language must be one of ${LANGUAGES.join(', ')}`),
});
export type LanguageSetting = v.InferOutput<typeof LanguageSetting>;

export const Role = v.picklist(['patient', 'admin']);

export const User = v.strictObject({ _id: v.string(), name: v.string(), email: v.string(), role: Role });
export type User = v.InferOutput<typeof User>;

/**
 * GET /api/users?q=&page= (admin): the users whose name or email contains `q` (all without it), by
 * name, USERS_PAGE_SIZE (contract/pages.ts) a page. The answer is the page's array; its `X-Total-Count` header says how
 * many users match, and a `Link: <…>; rel="next"` header (RFC 8288) names the next page, if any.
 */
export const UsersQuery = v.object({
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'q must be at most 100 characters')), ''),
  page,
});

export const AdminStatus = v.strictObject({ isAdmin: v.boolean() });
export type AdminStatus = v.InferOutput<typeof AdminStatus>;

/** PUT /api/users/admin/:id: `modifiedCount: 0` with a message when the user already is an admin. */
export const AdminMade = Modified;
export type AdminMade = Modified;

/** GET /api/users/search?q= (admin): patients whose name or email contains `q` (2 to 100 characters). */
export const PatientSearchQuery = v.object({
  q: v.pipe(
    v.string('q is required'),
    v.trim(),
    v.minLength(2, 'Type at least 2 characters of a name or email'),
    v.maxLength(100, 'q must be at most 100 characters'),
  ),
});

/** A patient found by the search, with the phone of their latest booking ('' when none) and their no-shows. */
export const PatientMatch = v.strictObject({
  _id: v.string(),
  name: v.string(),
  email: v.string(),
  phone: v.string(),
  noShows: v.number(),
  /** Whether they have signed up (a patient added by phone has not, until they sign up with that email). */
  hasAccount: v.boolean(),
  /** The people in their account (their dependants), by name: the desk can book them a family visit. */
  family: v.array(v.strictObject({ _id: v.string(), name: v.string() })),
});
export type PatientMatch = v.InferOutput<typeof PatientMatch>;

/**
 * DELETE /api/users/:id: the patient's record erased (one user), and the upcoming bookings of theirs
 * the clinic cancelled in the same batch (paid ones refunded).
 */
/**
 * DELETE /api/users/:id and /api/users/me: `cancelled`, the upcoming visits the erasure cancelled;
 * `notRefunded`, those of them paid and inside the free-cancellation window when the patient erased
 * their own account (the clinic keeps the payment, as it would on their cancellation).
 */
export const UserDeleted = v.strictObject({
  ...Deleted.entries,
  cancelled: v.array(StrandedBooking),
  notRefunded: v.array(StrandedBooking),
});
export type UserDeleted = v.InferOutput<typeof UserDeleted>;
