/**
 * The API paths of the route table (contract/routes.ts), built from a route's name: `pathOf('GET /bookings/:id',
 * { params: { id } })` is "/bookings/b1". Types only come from the table, and this module imports nothing at run
 * time, so the entry's early requests (api-paths.ts) and the Worker's renderer can name paths too.
 */
import type { RouteBody, RouteKey, RouteParams, RouteQuery } from '../../../contract/routes.ts';

type HasParams<K extends RouteKey> = keyof RouteParams<K> extends never ? false : true;
/** Every name a query may carry (a query schema may be a union of shapes). */
type QueryNames<Q> = Q extends object ? keyof Q : never;

/** What names one call of a route: its path parameters (when it has any) and its query. */
export type Where<K extends RouteKey> = (HasParams<K> extends true
  ? { params: RouteParams<K> }
  : { params?: undefined }) & {
  query?: RouteQuery<K, 'in'> extends undefined
    ? undefined
    : { [N in QueryNames<RouteQuery<K, 'in'>>]?: string | null };
};

/** Options may be left out where nothing is required (no path parameters, no body). */
export type Args<K extends RouteKey, O> =
  HasParams<K> extends true ? [options: O] : RouteBody<K, 'in'> extends undefined ? [options?: O] : [options: O];

const encode = encodeURIComponent;

/**
 * The path of one call of `route`, as the app's caches name it: "/bookings/b1", "/schedule?date=2026-12-03".
 * Parameters and query values are percent-encoded; query values that are null or undefined are left out.
 */
export function pathOf<K extends RouteKey>(
  route: K,
  ...[where]: HasParams<K> extends true ? [where: Where<K>] : [where?: Where<K>]
): string {
  const params: Record<string, string> = where?.params ?? {};
  const path = route.slice(route.indexOf(' ') + 1).replace(/:(\w+)(\+?)/g, (_, name: string, many: string) =>
    // A "+" parameter spans segments (an image's key): each is encoded, the slashes kept.
    (params[name] ?? '')
      .split(many ? '/' : /(?!)/)
      .map(encode)
      .join('/'),
  );
  const query = Object.entries((where?.query ?? {}) as Record<string, string | null | undefined>)
    .flatMap(([name, value]) => (value == null ? [] : [`${encode(name)}=${encode(value)}`]))
    .join('&');
  return query ? `${path}?${query}` : path;
}

/**
 * The part of a route's path before its first parameter, which begins the path of its every call:
 * prefixOf('GET /fees/:id') is "/fees/", prefixOf('GET /insights') is "/insights".
 */
export function prefixOf(route: RouteKey): string {
  const path = route.slice(route.indexOf(' ') + 1);
  const parameter = path.indexOf(':');
  return parameter < 0 ? path : path.slice(0, parameter);
}
