import * as v from 'valibot';
import { Inserted } from './answers.ts';
import { oneTime, TIME_FIELDS } from './bookings.ts';
import { BIRTH_YEARS, email, isoDate, text } from './fields.ts';

/** Who a dependant is to the account holder. */
export const Relationship = v.picklist(
  ['child', 'partner', 'parent', 'other'],
  'relationship must be child, partner, parent or other',
);
export type Relationship = v.InferOutput<typeof Relationship>;

/**
 * A person the signed-in patient cares for (GET /api/users/me/dependants): a patient of the clinic
 * with their own bookings and history, without a login; the account holder books, pays and gets
 * the messages.
 */
export const Dependant = v.strictObject({
  _id: v.string(),
  name: v.string(),
  /** ISO date. */
  birthDate: v.string(),
  relationship: Relationship,
});
export type Dependant = v.InferOutput<typeof Dependant>;

/** A date of birth: a real date, not in the future (checked by the Worker against the clinic's today). */
const birthDate = isoDate('birthDate', BIRTH_YEARS);

/** POST /api/users/me/dependants. */
export const NewDependant = v.object({ name: text('name', 100), birthDate, relationship: Relationship });
export type NewDependant = v.InferInput<typeof NewDependant>;
export const DependantAdded = Inserted;

/** PUT /api/users/me/dependants/:id: the fields to change. */
export const DependantChange = v.object({
  name: v.optional(text('name', 100)),
  birthDate: v.optional(birthDate),
  relationship: v.optional(Relationship),
});
export type DependantChange = v.InferInput<typeof DependantChange>;
export const DependantSaved = v.strictObject({ acknowledged: v.literal(true), dependant: Dependant });
export const DependantRemoved = v.strictObject({ acknowledged: v.literal(true), deletedCount: v.number() });

/** How the members of a family visit sit: all at the same start, or one after another. */
export const Arrangement = v.picklist(['together', 'back-to-back'], 'arrangement must be together or back-to-back');
export type Arrangement = v.InferOutput<typeof Arrangement>;

export const MAX_FAMILY_MEMBERS = 6;

/**
 * POST /api/bookings/family: every member booked in one batch, or nothing. `slot` is the first
 * member's; `together`: every member at that start in different chairs; `back-to-back`: each member
 * right after the one before. Each `patientId` is the caller (or absent, for the caller) or one of
 * the caller's dependants.
 */
const familyVisitFields = {
  appointmentDate: isoDate('appointmentDate'),
  ...TIME_FIELDS,
  arrangement: Arrangement,
  members: v.pipe(
    v.array(
      v.object({ patientId: v.optional(text('patientId', 100)), treatment: text('treatment', 100) }),
      'members must be a list of {patientId, treatment}',
    ),
    v.minLength(2, 'a family visit has 2 or more members'),
    v.maxLength(MAX_FAMILY_MEMBERS, `a family visit has at most ${MAX_FAMILY_MEMBERS} members`),
    v.check(
      (members) => new Set(members.map((m) => m.patientId ?? '')).size === members.length,
      'each person comes once in a family visit',
    ),
  ),
};
export const FamilyVisit = v.pipe(v.object(familyVisitFields), oneTime());
export type FamilyVisit = v.InferInput<typeof FamilyVisit>;

/**
 * POST /api/phone-bookings/family (admin): a family visit booked by the front desk for account
 * `accountId` (each member its holder or one of its dependants), paid at the clinic (the default:
 * no hold) or online by the account.
 */
export const FamilyPhoneBooking = v.pipe(
  v.object({
    ...familyVisitFields,
    accountId: text('accountId', 100),
    phone: text('phone', 40),
    payment: v.optional(v.picklist(['clinic', 'online'], 'payment must be "clinic" or "online"'), 'clinic'),
  }),
  oneTime(),
);
export type FamilyPhoneBooking = v.InferInput<typeof FamilyPhoneBooking>;

export const FamilyVisitBooked = v.strictObject({
  acknowledged: v.literal(true),
  insertedIds: v.array(v.string()),
  message: v.string(),
  /** Each person's visit, as a single booking's confirmation shows it; `payBy`: unpaid and held until then (ISO, UTC). */
  visits: v.array(
    v.strictObject({
      _id: v.string(),
      patientName: v.string(),
      treatment: v.string(),
      slot: v.string(),
      price: v.number(),
      payBy: v.nullable(v.string()),
    }),
  ),
});
export type FamilyVisitBooked = v.InferOutput<typeof FamilyVisitBooked>;

/**
 * GET /api/appointmentOptions/family?date=&members=<patientId>:<treatment>,…&arrangement= (the
 * account holder; `me` for the caller's own id): the first member's slots at which the whole family fits.
 */
export const FamilyOptionsQuery = v.object({
  date: isoDate('date'),
  /** The front desk: the account whose family it is (`me` then names its holder). */
  accountId: v.optional(text('accountId', 100)),
  members: v.pipe(v.string('members is required'), v.minLength(1, 'members is required'), v.maxLength(800)),
  arrangement: v.optional(Arrangement, 'together'),
});
export const FamilyOptions = v.strictObject({
  /** The first member's times at which the whole family fits, by their labels. */
  slots: v.array(v.string()),
  /** The same times by their starts, "10:00" (24-hour), one per label in `slots`, in the same order. */
  starts: v.array(v.string()),
  /** For each start, the family's span: from the first member's start to the last member's end. */
  spans: v.array(v.string()),
  /** When none fits: why, in words (the clinic closed, one dentist for both, chairs, hours, all taken). */
  reason: v.nullable(v.string()),
  /** When none fits this way but the other arrangement does: which, and its first start. */
  suggestion: v.nullable(v.strictObject({ arrangement: Arrangement, slot: v.string() })),
});
export type FamilyOptions = v.InferOutput<typeof FamilyOptions>;

/** How many record invitations one account may send in a day, all its dependants together (one each a day). */
export const INVITES_PER_ACCOUNT_PER_DAY = 3;

/** POST /api/users/me/dependants/:id/invite: a dependant of 18 or more is invited to claim their own record. */
export const RecordInvite = v.object({ email: email('email') });
export const RecordInvited = v.strictObject({ acknowledged: v.literal(true), message: v.string() });
