import { Router, type IRequest, type RequestHandler } from 'itty-router';
import { postContact } from './contact.ts';
import type { Env } from './env.ts';
import { HttpError, errorResponse, json } from './http.ts';
import { addDoctor, deleteDoctor, listDoctors } from './doctors.ts';
import { getImage, uploadImage } from './images.ts';
import { confirmDemoPayment, createPaymentIntent, listRefundsDue, recordPayment, stripeWebhook } from './payments.ts';
import { listAppointmentOptions, listSpecialties } from './appointments.ts';
import { bookingCalendar, cancelBooking, createBooking, getBooking, listBookings } from './bookings.ts';
import { getOwnReview, listReviews, listReviewsForModeration, moderateReview, saveReview } from './reviews.ts';
import { serveApp } from './app-shell.ts';
import { countQueries } from './query-count.ts';
import { scheduled } from './scheduled.ts';
import { withSecurityHeaders } from './security.ts';
import { deleteUser, getAccessToken, getAdminStatus, listUsers, makeAdmin, revokeSessions, saveUser } from './users.ts';

type Handler = RequestHandler<IRequest, [Env, ExecutionContext]>;
type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

const router = Router<IRequest, [Env, ExecutionContext]>({
  base: '/api',
  catch: (error: unknown, request: IRequest) => {
    if (error instanceof HttpError) {
      const response = errorResponse(request, error.status, error.message);
      for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
      return response;
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
    request.params = Object.fromEntries(Object.entries(request.params).map(([name, value]) => [name, decodeURIComponent(value)]));
    return handler(request, ...rest);
  };
}

/** Registers a path's handlers (HEAD answers as GET does); any other method answers 405 with Allow. */
function route(path: string, handlers: Partial<Record<Exclude<Method, 'HEAD'>, Handler>>): void {
  const methods: Partial<Record<Method, Handler>> = handlers.GET ? { GET: handlers.GET, HEAD: handlers.GET, ...handlers } : handlers;
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

// A trivial JSON answer: a liveness check, and the benchmark's baseline.
route('/health', { GET: () => json({ ok: true }) });
route('/jwt', { GET: getAccessToken });
route('/sessions/revoke', { POST: revokeSessions });
route('/users', { GET: listUsers, POST: saveUser });
// GET takes the user's email, PUT the user's id (the product's paths, docs/product.md#api-calls); both read params.target.
route('/users/admin/:target', { GET: getAdminStatus, PUT: makeAdmin });
route('/users/:id', { DELETE: deleteUser });
route('/appointmentOptions', { GET: listAppointmentOptions });
route('/appointmentSpecialty', { GET: listSpecialties });
route('/bookings', { GET: listBookings, POST: createBooking });
route('/bookings/:id', { GET: getBooking, DELETE: cancelBooking });
route('/bookings/:id/calendar.ics', { GET: bookingCalendar });
route('/reviews', { GET: listReviews, POST: saveReview });
route('/reviews/mine', { GET: getOwnReview });
route('/reviews/moderation', { GET: listReviewsForModeration });
route('/reviews/:id/status', { PUT: moderateReview });
route('/create-payment-intent', { POST: createPaymentIntent });
route('/payments', { POST: recordPayment });
route('/refunds', { GET: listRefundsDue });
route('/stripe/webhook', { POST: stripeWebhook });
route('/demo-payments/confirm', { POST: confirmDemoPayment });
route('/contact', { POST: postContact });
route('/images', { POST: uploadImage });
route('/images/:key+', { GET: getImage });
route('/doctors', { GET: listDoctors, POST: addDoctor });
route('/doctors/:id', { DELETE: deleteDoctor });
router.all('*', (request) => errorResponse(request, 404, 'No such endpoint'));

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== '/api' && !url.pathname.startsWith('/api/')) return withSecurityHeaders(await serveApp(request, env), env);
    const queries = countQueries(env.DB);
    let response = malformedEncoding(url)
      ? errorResponse(request, 400, 'This address is not valid: a "%" in it does not start an encoded character')
      : await router.fetch(request, { ...env, DB: queries.db }, ctx);
    response = withSecurityHeaders(response, env);
    if (request.method === 'HEAD') response = new Response(null, response);
    response.headers.set('Server-Timing', `d1;desc="${queries.count()} queries"`);
    return response;
  },
  scheduled,
} satisfies ExportedHandler<Env>;
