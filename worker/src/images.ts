import type { Env } from './env.ts';
import { HttpError } from './http.ts';

/** Photo keys are random (unguessable) ids with an image extension; nothing else is looked up. */
const IMAGE_KEY = /^[A-Za-z0-9_-]{8,64}\.(jpg|png|webp|gif|avif)$/;

/** GET /api/images/:key: a stored photo, cacheable forever (keys are never reused). */
export async function getImage(request: Request & { params: Record<string, string> }, env: Env): Promise<Response> {
  const key = request.params.key ?? '';
  const object = IMAGE_KEY.test(key) ? await env.PHOTOS.get(key) : null;
  if (!object) throw new HttpError(404, 'No such image');
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set('ETag', object.httpEtag);
  headers.set('Cache-Control', 'public, max-age=31536000, immutable');
  headers.set('X-Content-Type-Options', 'nosniff');
  return new Response(object.body, { headers });
}
