/**
 * The typed client of the Worker's API, driven by the route table (contract/routes.ts): a call names its
 * route as the table does, `client('POST /bookings', { body })`, and its path parameters, query, body and
 * answer are typed from that line, so a renamed route or a changed schema fails the build, not the patient.
 * Only types come from the table: no schema reaches the bundle.
 */
import type { RouteAnswer, RouteBody, RouteKey } from '../../../contract/routes.ts';
import { api, apiAnswer } from './api.ts';
import { type Args, pathOf, type Where } from './route-paths.ts';

/** A route's 2xx answer: its JSON, or a Blob where it answers a file (ask for it with an Accept header). */
export type Answer<K extends RouteKey> = RouteAnswer<K, Blob>;

/** One call: where it goes, its body (JSON, or the form of an upload) and any headers. */
export type CallOptions<K extends RouteKey> = Where<K> & {
  body?: RouteBody<K, 'in'> extends undefined ? FormData : RouteBody<K, 'in'>;
  headers?: HeadersInit;
};

function requestOf<K extends RouteKey>(route: K, options: CallOptions<K> | undefined): [string, RequestInit] {
  const method = route.slice(0, route.indexOf(' '));
  const body = options?.body;
  const init: RequestInit = { method, ...(options?.headers ? { headers: options.headers } : {}) };
  if (body !== undefined) init.body = body instanceof FormData ? body : JSON.stringify(body);
  return [(pathOf as (route: K, where?: Where<K>) => string)(route, options), init];
}

/** Calls `route` (api.ts: the access token, one renewal on 401, the caches a write changes) and answers its body. */
export function client<K extends RouteKey>(route: K, ...[options]: Args<K, CallOptions<K>>): Promise<Answer<K>> {
  return api<Answer<K>>(...requestOf(route, options));
}

/** As `client`, with the answer's headers (a page's X-Total-Count, say). */
export function clientAnswer<K extends RouteKey>(
  route: K,
  ...[options]: Args<K, CallOptions<K>>
): Promise<{ body: Answer<K>; headers: Headers }> {
  return apiAnswer<Answer<K>>(...requestOf(route, options));
}
