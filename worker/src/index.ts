import { Router, type IRequest, type RequestHandler } from 'itty-router';
import { postContact } from './contact.ts';
import type { Env } from './env.ts';
import { HttpError, errorResponse, json } from './http.ts';
import { addDoctor, deleteDoctor, listDoctors } from './doctors.ts';
import { getImage, uploadImage } from './images.ts';
import { confirmDemoPayment, createPaymentIntent, recordPayment, stripeWebhook } from './payments.ts';
import { listAppointmentOptions, listSpecialties } from './appointments.ts';
import { bookingCalendar, cancelBooking, createBooking, getBooking, listBookings } from './bookings.ts';
import { createReview, listReviews } from './reviews.ts';
import { serveApp } from './app-shell.ts';
import { countQueries } from './query-count.ts';
import { withSecurityHeaders } from './security.ts';
import { deleteUser, getAccessToken, getAdminStatus, listUsers, makeAdmin, revokeSessions, saveUser } from './users.ts';

type Handler = RequestHandler<IRequest, [Env, ExecutionContext]>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

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

/** Registers a path's handlers; any other method on that path answers 405 with Allow. */
function route(path: string, handlers: Partial<Record<Method, Handler>>): void {
  const allow = Object.keys(handlers).join(', ');
  for (const [method, handler] of Object.entries(handlers)) {
    router[method.toLowerCase() as Lowercase<Method>](path, handler);
  }
  router.all(path, (request) => {
    const response = errorResponse(request, 405, `${request.method} is not allowed here; use ${allow}`);
    response.headers.set('Allow', allow);
    return response;
  });
}

// A trivial JSON answer: a liveness check, and the benchmark's baseline.
route('/health', { GET: () => json({ ok: true }) });
route('/jwt', { GET: getAccessToken });
route('/sessions/revoke', { POST: revokeSessions });
route('/users', { GET: listUsers, POST: saveUser });
// GET takes the user's email, PUT the user's id (the spec's paths); both read params.target.
route('/users/admin/:target', { GET: getAdminStatus, PUT: makeAdmin });
route('/users/:id', { DELETE: deleteUser });
route('/appointmentOptions', { GET: listAppointmentOptions });
route('/appointmentSpecialty', { GET: listSpecialties });
route('/bookings', { GET: listBookings, POST: createBooking });
route('/bookings/:id', { GET: getBooking, DELETE: cancelBooking });
route('/bookings/:id/calendar.ics', { GET: bookingCalendar });
route('/reviews', { GET: listReviews, POST: createReview });
route('/create-payment-intent', { POST: createPaymentIntent });
route('/payments', { POST: recordPayment });
route('/stripe/webhook', { POST: stripeWebhook });
route('/demo-payments/confirm', { POST: confirmDemoPayment });
route('/contact', { POST: postContact });
route('/images', { POST: uploadImage });
route('/images/:key', { GET: getImage });
route('/doctors', { GET: listDoctors, POST: addDoctor });
route('/doctors/:id', { DELETE: deleteDoctor });
router.all('*', (request) => errorResponse(request, 404, 'No such endpoint'));

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname !== '/api' && !pathname.startsWith('/api/')) return withSecurityHeaders(await serveApp(request, env), env);
    const queries = countQueries(env.DB);
    const response = withSecurityHeaders(await router.fetch(request, { ...env, DB: queries.db }, ctx), env);
    response.headers.set('Server-Timing', `d1;desc="${queries.count()} queries"`);
    return response;
  },
} satisfies ExportedHandler<Env>;
