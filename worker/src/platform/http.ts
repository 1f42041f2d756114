import * as v from 'valibot';

/** An error a client caused or may see: its message is shown as is. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** More fields of the JSON answer, beside `message`. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  const response = Response.json(body, { status, headers });
  response.headers.set('Cache-Control', 'no-store');
  return response;
}

/** Every error is JSON with a readable `message`; writes also say `acknowledged: false`. */
export function errorResponse(
  request: Request,
  status: number,
  message: string,
  details: Record<string, unknown> = {},
): Response {
  const isWrite = request.method !== 'GET' && request.method !== 'HEAD';
  return json(isWrite ? { acknowledged: false, message, ...details } : { message, ...details }, status);
}

export const MAX_JSON_BYTES = 64 * 1024;

/**
 * Reads a JSON body no larger than `maxBytes` and validates it, answering 413, 415 or 400
 * with a message that names the problem. Unknown fields are dropped, never stored.
 */
export async function readJson<S extends v.GenericSchema>(
  request: Request,
  schema: S,
  maxBytes = MAX_JSON_BYTES,
): Promise<v.InferOutput<S>> {
  const type = request.headers.get('Content-Type') ?? '';
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type.trim())) {
    throw new HttpError(415, 'Send the body as JSON (Content-Type: application/json)');
  }
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readAtMost(request, maxBytes);
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
export function readQuery<S extends v.GenericSchema>(request: Request, schema: S): v.InferOutput<S> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URL(request.url).searchParams) query[name] ??= value;
  const result = v.safeParse(schema, query);
  if (!result.success) throw new HttpError(400, describeIssues(result.issues));
  return result.output;
}

export function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, `The body is larger than ${Math.round(maxBytes / 1024)} KB`);
}

/** Reads the body without ever holding more than `maxBytes` of it, whatever Content-Length said. */
export async function readAtMost(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
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

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,128}$/;

/**
 * The request's Idempotency-Key (null when it sends none and none is `required`), or a 400. A key
 * is the client's: whoever stores it scopes it to its sender, so one client's key never finds
 * another's answer.
 */
export function idempotencyKey(request: Request, { required = false } = {}): string | null {
  const key = request.headers.get('Idempotency-Key');
  if (key === null && !required) return null;
  if (key === null || !IDEMPOTENCY_KEY.test(key)) {
    throw new HttpError(
      400,
      required
        ? 'An Idempotency-Key header of 8 to 128 letters, digits or -_.: is required'
        : 'An Idempotency-Key is 8 to 128 letters, digits or -_.:',
    );
  }
  return key;
}
