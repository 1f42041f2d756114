import * as v from 'valibot';
import {
  pathParameter,
  type RouteBody,
  type RouteContract,
  type RouteKey,
  type RouteParams,
  type RouteQuery,
  routes,
} from '../../../contract/routes.ts';
import { HttpError, readAtMost, tooLarge } from './http.ts';

/** What a route's handler receives, parsed by the schemas on its line of the route table. */
export interface Input<K extends RouteKey> {
  /** The path's parameters, percent-decoded. */
  params: RouteParams<K>;
  query: RouteQuery<K, 'out'>;
  body: RouteBody<K, 'out'>;
}

const parsed = new WeakMap<Request, { route: RouteKey; input: Input<RouteKey> }>();

/**
 * Parses a request's path parameters, query and JSON body by its route's schemas (contract/routes.ts),
 * answering 400, 413 or 415 before the handler runs. The router's one place that reads a client's input:
 * a route whose body is not JSON (an image form, a signed webhook) reads its own bytes, as a signature is
 * checked over them.
 */
export async function parseInput(request: Request, route: RouteKey, params: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(params)) {
    const result = v.safeParse(parameterSchema(name), value);
    if (!result.success) throw new HttpError(400, describeIssues(result.issues));
  }
  const contract: RouteContract = routes[route];
  const query = isSchema(contract.query) ? readQuery(request, contract.query) : undefined;
  const body = isSchema(contract.body) ? await readJson(request, contract.body) : undefined;
  parsed.set(request, { route, input: { params, query, body } as Input<RouteKey> });
}

/**
 * The parsed input of `route` (as Hono's `c.req.valid()`): typed from the route table, so a handler
 * never chooses its schema again. Asking for another route's input is a programming error.
 */
export function inputOf<K extends RouteKey>(request: Request, route: K): Input<K> {
  const entry = parsed.get(request);
  if (entry?.route !== route) throw new Error(`The input of ${route} was not parsed for this request`);
  return entry.input as unknown as Input<K>;
}

const parameterSchemas = new Map<string, ReturnType<typeof pathParameter>>();
function parameterSchema(name: string) {
  const known = parameterSchemas.get(name);
  if (known) return known;
  const schema = pathParameter(name);
  parameterSchemas.set(name, schema);
  return schema;
}

function isSchema(value: unknown): value is v.GenericSchema {
  return typeof value === 'object' && value !== null && 'kind' in value && value.kind === 'schema';
}

const MAX_JSON_BYTES = 64 * 1024;

/**
 * Reads a JSON body of at most 64 KB and validates it, answering 413, 415 or 400
 * with a message that names the problem. Unknown fields are dropped, never stored.
 */
async function readJson<S extends v.GenericSchema>(request: Request, schema: S): Promise<v.InferOutput<S>> {
  const type = request.headers.get('Content-Type') ?? '';
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type.trim())) {
    throw new HttpError(415, 'Send the body as JSON (Content-Type: application/json)');
  }
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  if (declared > MAX_JSON_BYTES) throw tooLarge(MAX_JSON_BYTES);
  const bytes = await readAtMost(request, MAX_JSON_BYTES);
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new HttpError(400, 'The body is not valid JSON');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new HttpError(400, 'The body must be a JSON object');
  }
  const result = v.safeParse(schema, data);
  if (!result.success) throw new HttpError(400, describeIssues(result.issues));
  return result.output;
}

/**
 * Reads the query parameters a route's contract declares (the first value of each), answering 400
 * with a message that names the problem.
 */
function readQuery<S extends v.GenericSchema>(request: Request, schema: S): v.InferOutput<S> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URL(request.url).searchParams) query[name] ??= value;
  const result = v.safeParse(schema, query);
  if (!result.success) throw new HttpError(400, describeIssues(result.issues));
  return result.output;
}

function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const field = v.getDotPath(issue);
      return field && issue.received === 'undefined' ? `${field} is required` : issue.message;
    })
    .join('; ');
}
