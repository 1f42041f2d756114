import { type IRequest, type RequestHandler, Router } from 'itty-router';
import { type Health, type RouteKey, routes } from '../../contract/routes.ts';
import { serveApp } from './app-shell.ts';
import { listAppointmentOptions, listSpecialties } from './booking/appointments.ts';
import {
  bookingCalendar,
  bookingHistory,
  cancelBooking,
  createBooking,
  getBooking,
  listBookings,
} from './booking/bookings.ts';
import { getReviewList, getSchedule, scheduleCsv } from './booking/day-schedule.ts';
import { bookFamilyVisit, familyOptions } from './booking/family-visits.ts';
import { createFeed, deleteFeed, getFeed } from './booking/feeds.ts';
import {
  bookByPhone,
  bookFamilyByPhone,
  cancelBookingForPatient,
  keepBooking,
  markAttendance,
  rescheduleBooking,
  saveDeskNote,
  searchPatients,
} from './booking/front-desk.ts';
import { getInsights } from './booking/insights.ts';
import { servePublished } from './booking/publish.ts';
import {
  acceptWaitlistOffer,
  declineWaitlistOffer,
  getOffer,
  joinWaitlist,
  leaveWaitlist,
  listWaitlist,
} from './booking/waitlist.ts';
import {
  addChair,
  addClosure,
  deleteChair,
  deleteClosure,
  editChair,
  getHours,
  listChairs,
  listClosures,
  setHours,
} from './clinic/clinic.ts';
import { getClinicInfo } from './clinic/clinic-info.ts';
import { addDoctor, deleteDoctor, editDoctor, listDoctors, listTeam } from './clinic/doctors.ts';
import { getImage, uploadImage } from './clinic/images.ts';
import { getPolicy, setPolicy } from './clinic/policy.ts';
import { addSpecialty, deleteSpecialty, editSpecialty, listSpecialtiesInUse } from './clinic/specialties.ts';
import { addTreatment, deleteTreatment, editTreatment, listTreatments } from './clinic/treatments.ts';
import { runFollowUps } from './follow-up.ts';
import { postContact } from './messages/contact.ts';
import { listDeadEvents, replayDeadEvent } from './messages/dead-events.ts';
import { inviteDependant } from './messages/invites.ts';
import {
  answerLinkForm,
  bookByLink,
  callbackByLink,
  cancelByLink,
  confirmByLink,
  getLink,
  getLinkForms,
  startKiosk,
} from './messages/links.ts';
import { changeRecall, createRecall, importRecalls, listRecalls, myRecalls } from './messages/recalls.ts';
import {
  getMessageSettings,
  getReminderSetting,
  setMessageSettings,
  setReminderSetting,
} from './messages/reminders.ts';
import { getSmsSetting, setSmsSetting, smsInbound } from './messages/sms.ts';
import { listCards, removeCard, startCardSetup } from './money/cards.ts';
import { confirmDemoPayment } from './money/demo-confirm.ts';
import { getFee, waiveFeeRoute } from './money/fees.ts';
import {
  createPaymentIntent,
  getCardProvider,
  getReceipt,
  listRefundsDue,
  recordDeskPayment,
  recordPayment,
  stripeWebhook,
} from './money/payments.ts';
import { markHandedBack } from './money/refunds.ts';
import { getPatientStatement, getStatement } from './money/statement.ts';
import { admit } from './people/auth.ts';
import { addDependant, editDependant, listDependants, removeDependant } from './people/family.ts';
import {
  getAccessToken,
  getAdminStatus,
  getLanguage,
  listUsers,
  makeAdmin,
  revokeSessions,
  saveUser,
  setLanguage,
} from './people/users.ts';
import { listAudit } from './platform/audit.ts';
import { withRequestClock } from './platform/clock.ts';
import { isConstraintFailure } from './platform/data/unique-constraint.ts';
import type { Env } from './platform/env.ts';
import type { QueueMessage } from './platform/event-types.ts';
import { errorResponse, HttpError, json } from './platform/http.ts';
import { parseInput } from './platform/input.ts';
import { openApiDocument } from './platform/openapi.ts';
import { countQueries } from './platform/query-count.ts';
import { withSecurityHeaders } from './platform/security.ts';
import { queue } from './queue.ts';
import { answerForm, createForm, getBookingForms, getForms, updateForm } from './records/forms.ts';
import { deleteMyAccount, deleteUser, exportMyData, exportPatientData } from './records/privacy.ts';
import { getOwnReview, listReviews, listReviewsForModeration, moderateReview, saveReview } from './records/reviews.ts';
import { scheduled } from './scheduled.ts';

type Handler = RequestHandler<IRequest, [Env, ExecutionContext]>;
type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

const router = Router<IRequest, [Env, ExecutionContext]>({
  base: '/api',
  catch: (error: unknown, request: IRequest) => {
    if (error instanceof HttpError) {
      const response = errorResponse(request, error.status, error.message, error.details);
      for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
      return response;
    }
    // A rule of the database refused the write (a race no handler foresaw): nothing was stored.
    if (isConstraintFailure(error)) {
      console.warn(request.method, new URL(request.url).pathname, 'refused by a database rule:', error);
      return errorResponse(
        request,
        409,
        'This change conflicts with a change made meanwhile; please reload and try again',
      );
    }
    console.error(request.method, new URL(request.url).pathname, error);
    return errorResponse(request, 500, 'Something went wrong on our side; please try again');
  },
});

/**
 * Hands a handler its path parameters decoded, once: `fetch` has already refused any address
 * whose percent-encoding does not decode, so this cannot throw and no handler decodes again.
 */
function withDecodedParams(handler: Handler): Handler {
  return (request, ...rest) => {
    request.params = Object.fromEntries(
      Object.entries(request.params).map(([name, value]) => [name, decodeURIComponent(value)]),
    );
    return handler(request, ...rest);
  };
}

const registered: string[] = [];
/** Every route the router answers, as "METHOD /path" (HEAD not listed: it answers wherever GET does). */
export const registeredRoutes: readonly string[] = registered;

/** Registers a path's handlers (HEAD answers as GET does); any other method answers 405 with Allow. */
function route(path: string, handlers: Partial<Record<Exclude<Method, 'HEAD'>, Handler>>): void {
  for (const method of Object.keys(handlers)) registered.push(`${method} ${path}`);
  const methods: Partial<Record<Method, Handler>> = handlers.GET
    ? { GET: handlers.GET, HEAD: handlers.GET, ...handlers }
    : handlers;
  const allow = Object.keys(methods).join(', ');
  for (const [method, handler] of Object.entries(methods)) {
    router[method.toLowerCase() as Lowercase<Method>](path, withDecodedParams(handler));
  }
  router.all(path, (request) => {
    const response = errorResponse(request, 405, `${request.method} is not allowed here; use ${allow}`);
    response.headers.set('Allow', allow);
    return response;
  });
}

/** Whether the path or query has a "%" that is not a valid percent-encoded UTF-8 character. */
function malformedEncoding(url: URL): boolean {
  try {
    decodeURIComponent(url.pathname);
    decodeURIComponent(url.search.replaceAll('+', ' '));
    return false;
  } catch {
    return true;
  }
}

/**
 * The handler of every route of the contract (contract/routes.ts), and of no other: the compiler
 * refuses a route without its handler and a handler without its route.
 */
const handlers = {
  // A trivial JSON answer: a liveness check, and the benchmark's baseline.
  'GET /health': () => json({ ok: true } satisfies Health),
  'GET /openapi.json': () => json(openApiDocument(), 200, { 'Access-Control-Allow-Origin': '*' }),
  'GET /jwt': getAccessToken,
  'POST /sessions/revoke': revokeSessions,
  'GET /users': listUsers,
  'POST /users': saveUser,
  'GET /users/search': searchPatients,
  // GET takes the user's email, PUT the user's id (the product's paths, docs/product-reference.md#api-calls); both read params.target.
  'GET /users/admin/:target': getAdminStatus,
  'PUT /users/admin/:target': makeAdmin,
  'DELETE /users/me': deleteMyAccount,
  'DELETE /users/:id': deleteUser,
  'GET /users/me/export': exportMyData,
  'GET /users/:id/export': exportPatientData,
  'GET /appointmentOptions': listAppointmentOptions,
  'GET /appointmentSpecialty': listSpecialties,
  'GET /bookings': listBookings,
  'POST /bookings': createBooking,
  'GET /bookings/history': bookingHistory,
  'GET /bookings/:id': getBooking,
  'DELETE /bookings/:id': cancelBooking,
  'GET /bookings/:id/calendar.ics': bookingCalendar,
  'GET /bookings/:id/receipt': getReceipt,
  'GET /bookings/:id/forms': getBookingForms,
  'PUT /bookings/:id/forms/:formId': answerForm,
  'POST /bookings/:id/kiosk': startKiosk,
  'GET /forms': getForms,
  'POST /feeds': createFeed,
  'DELETE /feeds': deleteFeed,
  'GET /feeds/:file': getFeed,
  'POST /forms': createForm,
  'PUT /forms/:id': updateForm,
  'POST /bookings/:id/reschedule': rescheduleBooking,
  'POST /bookings/:id/attendance': markAttendance,
  'PUT /bookings/:id/note': saveDeskNote,
  'POST /bookings/:id/desk-payment': recordDeskPayment,
  'POST /bookings/:id/keep': keepBooking,
  'POST /bookings/:id/cancel': cancelBookingForPatient,
  'POST /phone-bookings': bookByPhone,
  'POST /phone-bookings/family': bookFamilyByPhone,
  'GET /schedule': getSchedule,
  'GET /insights': getInsights,
  'GET /schedule/review': getReviewList,
  'GET /schedule.csv': scheduleCsv,
  'GET /reviews': listReviews,
  'POST /reviews': saveReview,
  'GET /reviews/mine': getOwnReview,
  'GET /reviews/moderation': listReviewsForModeration,
  'PUT /reviews/:id/status': moderateReview,
  'POST /create-payment-intent': createPaymentIntent,
  'GET /payments/provider': getCardProvider,
  'POST /payments': recordPayment,
  'GET /refunds': listRefundsDue,
  'POST /refunds/:id/handed-back': markHandedBack,
  'POST /stripe/webhook': stripeWebhook,
  'POST /demo-payments/confirm': confirmDemoPayment,
  'GET /users/me/cards': listCards,
  'POST /users/me/cards': startCardSetup,
  'DELETE /users/me/cards/:id': removeCard,
  'GET /users/me/statement': getStatement,
  'GET /users/:id/statement': getPatientStatement,
  'GET /fees/:id': getFee,
  'POST /fees/:id/waive': waiveFeeRoute,
  'POST /contact': postContact,
  'POST /images': uploadImage,
  'GET /images/:key+': getImage,
  'GET /doctors': listDoctors,
  'POST /doctors': addDoctor,
  'DELETE /doctors/:id': deleteDoctor,
  'PUT /doctors/:id': editDoctor,
  'GET /team': listTeam,
  'GET /treatments': listTreatments,
  'POST /treatments': addTreatment,
  'PUT /treatments/:id': editTreatment,
  'DELETE /treatments/:id': deleteTreatment,
  'GET /clinic': getClinicInfo,
  'GET /clinic/hours': getHours,
  'PUT /clinic/hours': setHours,
  'GET /clinic/policy': getPolicy,
  'PUT /clinic/policy': setPolicy,
  'GET /closures': listClosures,
  'POST /closures': addClosure,
  'DELETE /closures/:id': deleteClosure,
  'GET /chairs': listChairs,
  'POST /chairs': addChair,
  'PUT /chairs/:id': editChair,
  'DELETE /chairs/:id': deleteChair,
  'GET /specialties': listSpecialtiesInUse,
  'POST /specialties': addSpecialty,
  'PUT /specialties/:id': editSpecialty,
  'DELETE /specialties/:id': deleteSpecialty,
  'GET /audit': listAudit,
  'GET /users/me/dependants': listDependants,
  'POST /users/me/dependants': addDependant,
  'PUT /users/me/dependants/:id': editDependant,
  'DELETE /users/me/dependants/:id': removeDependant,
  'POST /users/me/dependants/:id/invite': inviteDependant,
  'POST /bookings/family': bookFamilyVisit,
  'GET /appointmentOptions/family': familyOptions,
  'GET /recalls': listRecalls,
  'POST /recalls': createRecall,
  'POST /recalls/import': importRecalls,
  'PUT /recalls/:id': changeRecall,
  'GET /users/me/recalls': myRecalls,
  'GET /users/me/sms': getSmsSetting,
  'PUT /users/me/sms': setSmsSetting,
  'GET /users/me/language': getLanguage,
  'PUT /users/me/language': setLanguage,
  'GET /links/:token': getLink,
  'POST /links/:token/confirm': confirmByLink,
  'POST /links/:token/callback': callbackByLink,
  'POST /links/:token/cancel': cancelByLink,
  'POST /links/:token/book': bookByLink,
  'GET /links/:token/forms': getLinkForms,
  'PUT /links/:token/forms/:formId': answerLinkForm,
  'POST /sms/inbound': smsInbound,
  'GET /users/me/reminders': getReminderSetting,
  'PUT /users/me/reminders': setReminderSetting,
  'GET /messages/settings': getMessageSettings,
  'GET /events/dead': listDeadEvents,
  'POST /events/dead/:seq/replay': replayDeadEvent,
  'PUT /messages/settings': setMessageSettings,
  'GET /waitlist': listWaitlist,
  'POST /waitlist': joinWaitlist,
  'DELETE /waitlist/:id': leaveWaitlist,
  'GET /waitlist/offers/:id': getOffer,
  'POST /waitlist/offers/:id/accept': acceptWaitlistOffer,
  'POST /waitlist/offers/:id/decline': declineWaitlistOffer,
} satisfies Record<RouteKey, Handler>;

/**
 * A route's handler behind its line of the route table (contract/routes.ts): the one place who may call it
 * is enforced, and then the one place its input is parsed, so the handler gets typed values (`inputOf`).
 */
function guarded(key: RouteKey, handler: Handler): Handler {
  return async (request, env, ctx) => {
    await admit(request, env, routes[key].audience);
    await parseInput(request, key, request.params);
    return handler(request, env, ctx);
  };
}

// Each path once, in the contract's order, with all its methods.
const paths = new Map<string, Partial<Record<Exclude<Method, 'HEAD'>, Handler>>>();
for (const key of Object.keys(routes) as RouteKey[]) {
  const [method, path] = key.split(' ') as [Exclude<Method, 'HEAD'>, string];
  paths.set(path, { ...paths.get(path), [method]: guarded(key, handlers[key]) });
}
for (const [path, methods] of paths) route(path, methods);
router.all('*', (request) => errorResponse(request, 404, 'No such endpoint'));

export default {
  fetch: (request, env, ctx) => withRequestClock(request, env, () => answer(request, env, ctx)),
  scheduled,
  queue,
} satisfies ExportedHandler<Env, QueueMessage>;

async function answer(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname !== '/api' && !url.pathname.startsWith('/api/')) {
    // The free times published for booking aggregators (SMART Scheduling Links), else the app.
    const published = url.pathname.startsWith('/fhir/') ? await servePublished(request, env) : null;
    const callApi = (apiRequest: Request) => router.fetch(apiRequest, env, ctx);
    return withSecurityHeaders(published ?? (await serveApp(request, env, callApi)), env);
  }
  const queries = countQueries(env.DB);
  const requestEnv = { ...env, DB: queries.db };
  let response = malformedEncoding(url)
    ? errorResponse(request, 400, 'This address is not valid: a "%" in it does not start an encoded character')
    : await router.fetch(request, requestEnv, ctx);
  // The events a change appended go to the queue after the answer.
  runFollowUps(request, response, env, ctx);
  response = withSecurityHeaders(response, env);
  if (request.method === 'HEAD') response = new Response(null, response);
  response.headers.set('Server-Timing', `d1;desc="${queries.count()} queries"`);
  return response;
}
