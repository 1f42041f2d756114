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

/** The value of the cookie `name` that `request` carries, if any (an empty one counts as none). */
export function cookieOf(request: Request, name: string): string | undefined {
  const prefix = `${name}=`;
  const pair = request.headers
    .get('Cookie')
    ?.split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(prefix));
  return pair?.slice(prefix.length) || undefined;
}
