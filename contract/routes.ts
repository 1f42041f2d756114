import * as v from 'valibot';
import { Acknowledged, Deleted, Inserted, Modified } from './answers.ts';
import { AppointmentOption, AppointmentOptionsQuery, Specialty } from './appointments.ts';
import { AuditPage, AuditQuery } from './audit.ts';
import {
  Attendance,
  AttendanceSaved,
  Booking,
  BookingCancelled,
  BookingCreated,
  BookingHistory,
  BookingsQuery,
  CancelForPatient,
  CancelQuery,
  DeskNote,
  DryRunQuery,
  ForceQuery,
  HistoryQuery,
  NewBooking,
  PhoneBooked,
  PhoneBooking,
  Reschedule,
  Rescheduled,
  StrandDryRun,
} from './bookings.ts';
import {
  Chair,
  ChairAdded,
  ChairDeleted,
  ClinicInfo,
  Closure,
  ClosureAdded,
  ClosureDeleted,
  HoursChange,
  HoursSaved,
  NewChair,
  NewClosure,
  NewSpecialty,
  OpeningHours,
  SpecialtyInUse,
} from './clinic.ts';
import { ContactMessage, ContactReceived } from './contact.ts';
import {
  Doctor,
  DoctorAdded,
  DoctorChanges,
  DoctorDeleted,
  DoctorUpdated,
  NewDoctor,
  TeamMember,
  UploadedImage,
} from './doctors.ts';
import {
  Dependant,
  DependantAdded,
  DependantChange,
  DependantRemoved,
  DependantSaved,
  FamilyOptions,
  FamilyOptionsQuery,
  FamilyPhoneBooking,
  FamilyVisit,
  FamilyVisitBooked,
  NewDependant,
  RecordInvite,
  RecordInvited,
} from './family.ts';
import { FeedCreated, FeedQuery, FeedRequest } from './feeds.ts';
import { Fee, FeeWaived, Statement } from './fees.ts';
import { singleLine } from './fields.ts';
import { BookingForm, FormAnswered, FormAnswers, FormSaved, FormSummary, FormTemplate } from './forms.ts';
import { InsightsAnswer, InsightsQuery } from './insights.ts';

import {
  KioskStarted,
  LinkBooked,
  LinkBookingChoice,
  LinkDone,
  LinkForms,
  LinkInfo,
  SmsSetting,
  SmsSettingChange,
} from './links.ts';
import {
  DeadEvent,
  EventReplayed,
  MessageSettings,
  MessageSettingsChange,
  NewWaitlistEntry,
  OfferAccepted,
  OfferDeclined,
  ReminderSetting,
  ReminderSettingSaved,
  WaitlistEntry,
  WaitlistJoined,
  WaitlistLeft,
  WaitlistOffer,
} from './messages.ts';
import {
  CardProvider,
  ConfirmedPayment,
  DemoConfirmation,
  DeskPaid,
  DeskPayment,
  IntentRequest,
  PaymentIntentAnswer,
  PaymentRecord,
  Receipt,
  RecordedPayment,
  RefundDue,
  RefundHandedBack,
  WebhookReceipt,
} from './payments.ts';
import { BookingRules, PolicyChange, PolicySaved } from './policy.ts';
import {
  MyRecall,
  NewRecall,
  RecallAdded,
  RecallChange,
  RecallChanged,
  RecallImport,
  RecallList,
  RecallsImported,
  RecallsQuery,
} from './recalls.ts';
import {
  Moderation,
  ModerationQuery,
  NewReview,
  OwnReview,
  QueuedReview,
  Review,
  ReviewModerated,
  ReviewSaved,
} from './reviews.ts';
import { CardSaved, CardSetup, SavedCard } from './saved-cards.ts';
import { ReviewEntry, ScheduleAnswer, ScheduleCsvQuery, ScheduleQuery } from './schedule.ts';
import {
  NewTreatment,
  Treatment,
  TreatmentAdded,
  TreatmentChanges,
  TreatmentDeleted,
  TreatmentUpdated,
} from './treatments.ts';
import {
  AccessToken,
  AccessTokenQuery,
  AdminMade,
  AdminStatus,
  LanguageSetting,
  NewUser,
  PatientMatch,
  PatientSearchQuery,
  User,
  UserDeleted,
  UserSaved,
  UsersQuery,
} from './users.ts';

/** An answer that is a file, not JSON: its Content-Type (`image/*`: any image type). */
export interface FileAnswer {
  file: string;
}

/** A body that is not a JSON object: a multipart form with its file field, or a payload checked by its signature. */
export type OtherBody = { form: string } | { signedBy: string };

/**
 * Who may call a route. One guard in the Worker applies it before the handler runs (a signed-in
 * audience gets the caller read from D1 once); handlers check ownership only where it is 'owner'.
 *   public    anyone
 *   identity  the holder of a Firebase ID token (the guard verifies it, after the sign-in rate limit)
 *   signed    a caller that signs its body (the payment provider's webhook)
 *   patient   any signed-in user
 *   owner     a signed-in user who owns what the path names (a booking, a waitlist entry or offer, an
 *             account), or an admin where the handler allows it
 *   admin     an admin
 */
export type Audience = 'public' | 'identity' | 'signed' | 'patient' | 'owner' | 'admin';

export interface RouteContract {
  audience: Audience;
  /** The JSON body (validated by the Worker with this schema), or another kind of body. */
  body?: v.GenericSchema | OtherBody;
  /** The query parameters that matter. */
  query?: v.GenericSchema;
  /** What a 2xx answer holds: a JSON schema, or a file. Errors are `{message}` (writes add `acknowledged: false`). */
  response: v.GenericSchema | FileAnswer;
}

/**
 * Every path parameter (an id, a link's token, an image's key), by its name: one line of at most 500 characters.
 * What it names is the handler's to find (404 when it is no one's).
 */
export const pathParameter = (name: string) =>
  v.pipe(
    v.string(),
    v.minLength(1, `${name} is required`),
    v.maxLength(500, `${name} must be at most 500 characters`),
    singleLine(name),
  );

export const Health = v.strictObject({ ok: v.literal(true) });
export type Health = v.InferOutput<typeof Health>;

/** GET /api/openapi.json: this table as an OpenAPI 3.1 document (worker/src/platform/openapi.ts). */
export const OpenApiDocument = v.looseObject({
  openapi: v.literal('3.1.0'),
  info: v.looseObject({ title: v.string(), version: v.string() }),
  paths: v.record(v.string(), v.record(v.string(), v.looseObject({ 'x-audience': v.string() }))),
});

/**
 * Every route of the API under /api, as "METHOD /path" with itty-router's path syntax. The Worker
 * registers exactly these (worker/src/index.ts); HEAD is answered wherever GET is. The Worker tests
 * check every 2xx answer against its route's `response`.
 */
export const routes = {
  'GET /health': { audience: 'public', response: Health },
  'GET /openapi.json': { audience: 'public', response: OpenApiDocument },
  'GET /jwt': { audience: 'identity', query: AccessTokenQuery, response: AccessToken },
  'POST /sessions/revoke': { audience: 'patient', response: Acknowledged },
  'GET /users': { audience: 'admin', query: UsersQuery, response: v.array(User) },
  'POST /users': { audience: 'identity', body: NewUser, response: UserSaved },
  // Before /users/:id, whose other methods answer 405.
  'GET /users/search': { audience: 'admin', query: PatientSearchQuery, response: v.array(PatientMatch) },
  // GET takes the user's email, PUT the user's id (the spec's paths).
  'GET /users/admin/:target': { audience: 'owner', response: AdminStatus },
  'PUT /users/admin/:target': { audience: 'admin', response: AdminMade },
  'DELETE /users/me': { audience: 'patient', response: UserDeleted },
  'DELETE /users/:id': { audience: 'admin', response: UserDeleted },
  'GET /users/me/export': { audience: 'patient', response: { file: 'application/json' } },
  'GET /users/:id/export': { audience: 'admin', response: { file: 'application/json' } },
  'GET /appointmentOptions': {
    audience: 'public',
    query: AppointmentOptionsQuery,
    response: v.array(AppointmentOption),
  },
  'GET /appointmentSpecialty': { audience: 'public', response: v.array(Specialty) },
  'GET /bookings': { audience: 'patient', query: BookingsQuery, response: v.array(Booking) },
  'POST /bookings': { audience: 'patient', body: NewBooking, response: BookingCreated },
  'POST /bookings/family': { audience: 'patient', body: FamilyVisit, response: FamilyVisitBooked },
  'GET /bookings/history': { audience: 'patient', query: HistoryQuery, response: BookingHistory },
  'GET /bookings/:id': { audience: 'owner', response: Booking },
  'DELETE /bookings/:id': { audience: 'owner', query: CancelQuery, response: BookingCancelled },
  'GET /bookings/:id/receipt': { audience: 'owner', response: Receipt },
  'GET /bookings/:id/forms': { audience: 'owner', response: v.array(BookingForm) },
  'PUT /bookings/:id/forms/:formId': { audience: 'owner', body: FormAnswers, response: FormAnswered },
  'POST /bookings/:id/kiosk': { audience: 'admin', response: KioskStarted },
  'GET /forms': { audience: 'admin', response: v.array(FormSummary) },
  'POST /feeds': { audience: 'patient', body: FeedRequest, response: FeedCreated },
  'DELETE /feeds': { audience: 'patient', query: FeedQuery, response: Deleted },
  'GET /feeds/:file': { audience: 'public', response: { file: 'text/calendar' } },
  'POST /forms': { audience: 'admin', body: FormTemplate, response: FormSaved },
  'PUT /forms/:id': { audience: 'admin', body: FormTemplate, response: FormSaved },
  'GET /bookings/:id/calendar.ics': { audience: 'owner', response: { file: 'text/calendar' } },
  'POST /bookings/:id/reschedule': { audience: 'owner', body: Reschedule, response: Rescheduled },
  'POST /bookings/:id/attendance': { audience: 'admin', body: Attendance, response: AttendanceSaved },
  'PUT /bookings/:id/note': { audience: 'admin', body: DeskNote, response: Modified },
  'POST /bookings/:id/desk-payment': { audience: 'admin', body: DeskPayment, response: DeskPaid },
  'POST /bookings/:id/keep': { audience: 'admin', response: Modified },
  'POST /bookings/:id/cancel': { audience: 'admin', body: CancelForPatient, response: BookingCancelled },
  'POST /phone-bookings': { audience: 'admin', body: PhoneBooking, response: PhoneBooked },
  'POST /phone-bookings/family': { audience: 'admin', body: FamilyPhoneBooking, response: FamilyVisitBooked },
  'GET /schedule': { audience: 'admin', query: ScheduleQuery, response: ScheduleAnswer },
  'GET /insights': { audience: 'admin', query: InsightsQuery, response: InsightsAnswer },
  'GET /schedule/review': { audience: 'admin', response: v.array(ReviewEntry) },
  'GET /schedule.csv': { audience: 'admin', query: ScheduleCsvQuery, response: { file: 'text/csv' } },
  'GET /reviews': { audience: 'public', response: v.array(Review) },
  'POST /reviews': { audience: 'patient', body: NewReview, response: ReviewSaved },
  'GET /reviews/mine': { audience: 'patient', response: OwnReview },
  'GET /reviews/moderation': { audience: 'admin', query: ModerationQuery, response: v.array(QueuedReview) },
  'PUT /reviews/:id/status': { audience: 'admin', body: Moderation, response: ReviewModerated },
  'POST /create-payment-intent': { audience: 'patient', body: IntentRequest, response: PaymentIntentAnswer },
  'GET /payments/provider': { audience: 'public', response: CardProvider },
  'POST /payments': { audience: 'patient', body: PaymentRecord, response: RecordedPayment },
  'GET /refunds': { audience: 'admin', response: v.array(RefundDue) },
  'POST /refunds/:id/handed-back': { audience: 'admin', response: RefundHandedBack },
  'POST /stripe/webhook': { audience: 'signed', body: { signedBy: 'Stripe-Signature' }, response: WebhookReceipt },
  'POST /demo-payments/confirm': {
    audience: 'patient',
    body: DemoConfirmation,
    response: v.union([ConfirmedPayment, CardSaved]),
  },
  'GET /users/me/cards': { audience: 'patient', response: v.array(SavedCard) },
  'POST /users/me/cards': { audience: 'patient', response: CardSetup },
  'DELETE /users/me/cards/:id': { audience: 'owner', response: Deleted },
  'GET /users/me/statement': { audience: 'patient', response: Statement },
  'GET /users/:id/statement': { audience: 'admin', response: Statement },
  'GET /fees/:id': { audience: 'owner', response: Fee },
  'POST /fees/:id/waive': { audience: 'admin', response: FeeWaived },
  'POST /contact': { audience: 'public', body: ContactMessage, response: ContactReceived },
  'POST /images': { audience: 'admin', body: { form: 'image' }, response: UploadedImage },
  'GET /images/:key+': { audience: 'public', response: { file: 'image/*' } },
  'GET /doctors': { audience: 'admin', response: v.array(Doctor) },
  'POST /doctors': { audience: 'admin', body: NewDoctor, response: DoctorAdded },
  'PUT /doctors/:id': {
    audience: 'admin',
    body: DoctorChanges,
    query: DryRunQuery,
    response: v.union([DoctorUpdated, StrandDryRun]),
  },
  'DELETE /doctors/:id': { audience: 'admin', query: ForceQuery, response: v.union([DoctorDeleted, StrandDryRun]) },
  'GET /team': { audience: 'public', response: v.array(TeamMember) },
  'GET /treatments': { audience: 'admin', response: v.array(Treatment) },
  'POST /treatments': { audience: 'admin', body: NewTreatment, response: TreatmentAdded },
  'PUT /treatments/:id': { audience: 'admin', body: TreatmentChanges, response: TreatmentUpdated },
  'DELETE /treatments/:id': { audience: 'admin', response: TreatmentDeleted },
  'GET /users/me/dependants': { audience: 'patient', response: v.array(Dependant) },
  'POST /users/me/dependants': { audience: 'patient', body: NewDependant, response: DependantAdded },
  'PUT /users/me/dependants/:id': { audience: 'owner', body: DependantChange, response: DependantSaved },
  'DELETE /users/me/dependants/:id': { audience: 'owner', response: DependantRemoved },
  'POST /users/me/dependants/:id/invite': { audience: 'owner', body: RecordInvite, response: RecordInvited },
  'GET /appointmentOptions/family': { audience: 'patient', query: FamilyOptionsQuery, response: FamilyOptions },
  'GET /recalls': { audience: 'admin', query: RecallsQuery, response: RecallList },
  'POST /recalls': { audience: 'admin', body: NewRecall, response: RecallAdded },
  'POST /recalls/import': { audience: 'admin', body: RecallImport, response: RecallsImported },
  'PUT /recalls/:id': { audience: 'admin', body: RecallChange, response: RecallChanged },
  'GET /users/me/recalls': { audience: 'patient', response: v.array(MyRecall) },
  'GET /users/me/sms': { audience: 'patient', response: SmsSetting },
  'PUT /users/me/sms': { audience: 'patient', body: SmsSettingChange, response: SmsSetting },
  'GET /users/me/language': { audience: 'patient', response: LanguageSetting },
  'PUT /users/me/language': { audience: 'patient', body: LanguageSetting, response: LanguageSetting },
  'GET /links/:token': { audience: 'public', response: LinkInfo },
  'POST /links/:token/confirm': { audience: 'public', response: LinkDone },
  'POST /links/:token/callback': { audience: 'public', response: LinkDone },
  'POST /links/:token/cancel': { audience: 'public', response: LinkDone },
  'POST /links/:token/book': { audience: 'public', body: LinkBookingChoice, response: LinkBooked },
  'GET /links/:token/forms': { audience: 'public', response: LinkForms },
  'PUT /links/:token/forms/:formId': { audience: 'public', body: FormAnswers, response: FormAnswered },
  'POST /sms/inbound': { audience: 'signed', body: { signedBy: 'X-Twilio-Signature' }, response: { file: 'text/xml' } },
  'GET /clinic': { audience: 'public', response: ClinicInfo },
  'GET /clinic/hours': { audience: 'public', response: v.array(OpeningHours) },
  'PUT /clinic/hours': {
    audience: 'admin',
    body: HoursChange,
    query: DryRunQuery,
    response: v.union([HoursSaved, StrandDryRun]),
  },
  'GET /clinic/policy': { audience: 'public', response: BookingRules },
  'PUT /clinic/policy': { audience: 'admin', body: PolicyChange, response: PolicySaved },
  'GET /closures': { audience: 'admin', response: v.array(Closure) },
  'POST /closures': {
    audience: 'admin',
    body: NewClosure,
    query: DryRunQuery,
    response: v.union([ClosureAdded, StrandDryRun]),
  },
  'DELETE /closures/:id': { audience: 'admin', response: ClosureDeleted },
  'GET /chairs': { audience: 'admin', response: v.array(Chair) },
  'POST /chairs': { audience: 'admin', body: NewChair, response: ChairAdded },
  'PUT /chairs/:id': { audience: 'admin', body: NewChair, response: Modified },
  'DELETE /chairs/:id': { audience: 'admin', query: ForceQuery, response: v.union([ChairDeleted, StrandDryRun]) },
  'GET /specialties': { audience: 'admin', response: v.array(SpecialtyInUse) },
  'POST /specialties': { audience: 'admin', body: NewSpecialty, response: Inserted },
  'PUT /specialties/:id': { audience: 'admin', body: NewSpecialty, response: Modified },
  'DELETE /specialties/:id': { audience: 'admin', response: Deleted },
  'GET /audit': { audience: 'admin', query: AuditQuery, response: AuditPage },
  'GET /users/me/reminders': { audience: 'patient', response: ReminderSetting },
  'PUT /users/me/reminders': { audience: 'patient', body: ReminderSetting, response: ReminderSettingSaved },
  'GET /messages/settings': { audience: 'admin', response: MessageSettings },
  'GET /events/dead': { audience: 'admin', response: v.array(DeadEvent) },
  'POST /events/dead/:seq/replay': { audience: 'admin', response: EventReplayed },
  'PUT /messages/settings': { audience: 'admin', body: MessageSettingsChange, response: MessageSettings },
  'GET /waitlist': { audience: 'patient', response: v.array(WaitlistEntry) },
  'POST /waitlist': { audience: 'patient', body: NewWaitlistEntry, response: WaitlistJoined },
  'DELETE /waitlist/:id': { audience: 'owner', response: WaitlistLeft },
  'GET /waitlist/offers/:id': { audience: 'owner', response: WaitlistOffer },
  'POST /waitlist/offers/:id/accept': { audience: 'owner', response: OfferAccepted },
  'POST /waitlist/offers/:id/decline': { audience: 'owner', response: OfferDeclined },
} as const satisfies Record<string, RouteContract>;

export type RouteKey = keyof typeof routes;

/** "GET /bookings/:id" → "/bookings/:id". */
export type PathOf<K extends RouteKey> = K extends `${string} ${infer Path}` ? Path : never;
/** The names of a path's parameters: "/bookings/:id/forms/:formId" → "id" | "formId" (":key+" → "key"). */
type ParamNames<P> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name extends `${infer Bare}+`
      ? Bare
      : Name
    : never;
/** A route's path parameters, by name. */
export type RouteParams<K extends RouteKey> = { [Name in ParamNames<PathOf<K>>]: string };

type Field<K extends RouteKey, F extends 'body' | 'query' | 'response'> = (typeof routes)[K] extends {
  [P in F]: infer S;
}
  ? S
  : undefined;
/** A schema's values as a client sends them (`in`) or as the Worker reads them once parsed (`out`). */
type Values<S, Side extends 'in' | 'out'> = S extends v.GenericSchema
  ? Side extends 'in'
    ? v.InferInput<S>
    : v.InferOutput<S>
  : undefined;
/** A route's JSON body (undefined when it takes none, or takes another kind of body). */
export type RouteBody<K extends RouteKey, Side extends 'in' | 'out'> = Values<Field<K, 'body'>, Side>;
/** A route's query parameters (undefined when it declares none). */
export type RouteQuery<K extends RouteKey, Side extends 'in' | 'out'> = Values<Field<K, 'query'>, Side>;
/** What a route's 2xx answer holds: its JSON, or `File` (what a file is on the reading side) where it answers one. */
export type RouteAnswer<K extends RouteKey, File> =
  Field<K, 'response'> extends v.GenericSchema ? v.InferOutput<Field<K, 'response'>> : File;
