import { HttpError } from './http.ts';

/** The caller's address as Cloudflare reports it (set by the edge; clients cannot forge it there). */
export function clientAddress(request: Request): string {
  return request.headers.get('CF-Connecting-IP') ?? 'unknown';
}

/** Spends one request of `key`'s budget on `limiter`; over budget answers 429 with Retry-After. */
export async function spend(limiter: RateLimit, key: string, what: string): Promise<void> {
  const { success } = await limiter.limit({ key });
  if (!success) {
    throw new HttpError(429, `Too many ${what} in a short time; please wait a minute and try again`, {
      'Retry-After': '60',
    });
  }
}
