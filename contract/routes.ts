import * as v from 'valibot';
import { Acknowledged } from './answers.ts';
import { AppointmentOption, AppointmentOptionsQuery, Specialty } from './appointments.ts';
import { AuditPage, AuditQuery } from './audit.ts';
import {
  Attendance,
  AttendanceSaved,
  Booking,
  BookingCancelled,
  BookingCreated,
  BookingsQuery,
  CancelForPatient,
  CancelQuery,
  ForceQuery,
  NewBooking,
  PhoneBooked,
  PhoneBooking,
  Reschedule,
  Rescheduled,
} from './bookings.ts';
import {
  Chair,
  ChairAdded,
  ChairDeleted,
  Closure,
  ClosureAdded,
  ClosureDeleted,
  HoursChange,
  HoursSaved,
  NewChair,
  NewClosure,
  OpeningHours,
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
  ConfirmedPayment,
  DemoConfirmation,
  IntentRequest,
  PaymentIntentAnswer,
  PaymentRecord,
  Receipt,
  RecordedPayment,
  RefundDue,
  WebhookReceipt,
} from './payments.ts';
import { CancellationPolicy, PolicyChange, PolicySaved } from './policy.ts';
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
import { ScheduleAnswer, ScheduleCsvQuery, ScheduleQuery } from './schedule.ts';
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
  NewUser,
  PatientMatch,
  PatientSearchQuery,
  User,
  UserDeleted,
  UserSaved,
} from './users.ts';

/** An answer that is a file, not JSON: its Content-Type (`image/*`: any image type). */
export interface FileAnswer {
  file: string;
}

/** A body that is not a JSON object: a multipart form with its file field, or a payload checked by its signature. */
export type OtherBody = { form: string } | { signedBy: string };

export interface RouteContract {
  /** The JSON body (validated by the Worker with this schema), or another kind of body. */
  body?: v.GenericSchema | OtherBody;
  /** The query parameters that matter. */
  query?: v.GenericSchema;
  /** What a 2xx answer holds: a JSON schema, or a file. Errors are `{message}` (writes add `acknowledged: false`). */
  response: v.GenericSchema | FileAnswer;
}

export const Health = v.strictObject({ ok: v.literal(true) });
export type Health = v.InferOutput<typeof Health>;

/**
 * Every route of the API under /api, as "METHOD /path" with itty-router's path syntax. The Worker
 * registers exactly these (worker/src/index.ts); HEAD is answered wherever GET is. The Worker tests
 * check every 2xx answer against its route's `response`.
 */
export const routes = {
  'GET /health': { response: Health },
  'GET /jwt': { query: AccessTokenQuery, response: AccessToken },
  'POST /sessions/revoke': { response: Acknowledged },
  'GET /users': { response: v.array(User) },
  'POST /users': { body: NewUser, response: UserSaved },
  // Before /users/:id, whose other methods answer 405.
  'GET /users/search': { query: PatientSearchQuery, response: v.array(PatientMatch) },
  // GET takes the user's email, PUT the user's id (the spec's paths).
  'GET /users/admin/:target': { response: AdminStatus },
  'PUT /users/admin/:target': { response: AdminMade },
  'DELETE /users/:id': { response: UserDeleted },
  'GET /appointmentOptions': { query: AppointmentOptionsQuery, response: v.array(AppointmentOption) },
  'GET /appointmentSpecialty': { response: v.array(Specialty) },
  'GET /bookings': { query: BookingsQuery, response: v.array(Booking) },
  'POST /bookings': { body: NewBooking, response: BookingCreated },
  'GET /bookings/:id': { response: Booking },
  'DELETE /bookings/:id': { query: CancelQuery, response: BookingCancelled },
  'GET /bookings/:id/receipt': { response: Receipt },
  'GET /bookings/:id/calendar.ics': { response: { file: 'text/calendar' } },
  'POST /bookings/:id/reschedule': { body: Reschedule, response: Rescheduled },
  'POST /bookings/:id/attendance': { body: Attendance, response: AttendanceSaved },
  'POST /bookings/:id/cancel': { body: CancelForPatient, response: BookingCancelled },
  'POST /phone-bookings': { body: PhoneBooking, response: PhoneBooked },
  'GET /schedule': { query: ScheduleQuery, response: ScheduleAnswer },
  'GET /schedule.csv': { query: ScheduleCsvQuery, response: { file: 'text/csv' } },
  'GET /reviews': { response: v.array(Review) },
  'POST /reviews': { body: NewReview, response: ReviewSaved },
  'GET /reviews/mine': { response: OwnReview },
  'GET /reviews/moderation': { query: ModerationQuery, response: v.array(QueuedReview) },
  'PUT /reviews/:id/status': { body: Moderation, response: ReviewModerated },
  'POST /create-payment-intent': { body: IntentRequest, response: PaymentIntentAnswer },
  'POST /payments': { body: PaymentRecord, response: RecordedPayment },
  'GET /refunds': { response: v.array(RefundDue) },
  'POST /stripe/webhook': { body: { signedBy: 'Stripe-Signature' }, response: WebhookReceipt },
  'POST /demo-payments/confirm': { body: DemoConfirmation, response: ConfirmedPayment },
  'POST /contact': { body: ContactMessage, response: ContactReceived },
  'POST /images': { body: { form: 'image' }, response: UploadedImage },
  'GET /images/:key+': { response: { file: 'image/*' } },
  'GET /doctors': { response: v.array(Doctor) },
  'POST /doctors': { body: NewDoctor, response: DoctorAdded },
  'PUT /doctors/:id': { body: DoctorChanges, response: DoctorUpdated },
  'DELETE /doctors/:id': { query: ForceQuery, response: DoctorDeleted },
  'GET /team': { response: v.array(TeamMember) },
  'GET /treatments': { response: v.array(Treatment) },
  'POST /treatments': { body: NewTreatment, response: TreatmentAdded },
  'PUT /treatments/:id': { body: TreatmentChanges, response: TreatmentUpdated },
  'DELETE /treatments/:id': { response: TreatmentDeleted },
  'GET /clinic/hours': { response: v.array(OpeningHours) },
  'PUT /clinic/hours': { body: HoursChange, response: HoursSaved },
  'GET /clinic/policy': { response: CancellationPolicy },
  'PUT /clinic/policy': { body: PolicyChange, response: PolicySaved },
  'GET /closures': { response: v.array(Closure) },
  'POST /closures': { body: NewClosure, response: ClosureAdded },
  'DELETE /closures/:id': { response: ClosureDeleted },
  'GET /chairs': { response: v.array(Chair) },
  'POST /chairs': { body: NewChair, response: ChairAdded },
  'DELETE /chairs/:id': { query: ForceQuery, response: ChairDeleted },
  'GET /audit': { query: AuditQuery, response: AuditPage },
  'GET /users/me/reminders': { response: ReminderSetting },
  'PUT /users/me/reminders': { body: ReminderSetting, response: ReminderSettingSaved },
  'GET /messages/settings': { response: MessageSettings },
  'PUT /messages/settings': { body: MessageSettingsChange, response: MessageSettings },
  'GET /waitlist': { response: v.array(WaitlistEntry) },
  'POST /waitlist': { body: NewWaitlistEntry, response: WaitlistJoined },
  'DELETE /waitlist/:id': { response: WaitlistLeft },
  'GET /waitlist/offers/:id': { response: WaitlistOffer },
  'POST /waitlist/offers/:id/accept': { response: OfferAccepted },
  'POST /waitlist/offers/:id/decline': { response: OfferDeclined },
} as const satisfies Record<string, RouteContract>;

export type RouteKey = keyof typeof routes;
