import type { UploadedImage } from '../../../contract/doctors.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json, readAtMost } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { imageUrl, isImageKey } from './data/photo-keys.ts';

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** Room for the multipart envelope around the file. */
const MULTIPART_OVERHEAD = 16 * 1024;

const IMAGE_TYPES = [
  { ext: 'jpg', type: 'image/jpeg', test: (b: Uint8Array) => starts(b, [0xff, 0xd8, 0xff]) },
  {
    ext: 'png',
    type: 'image/png',
    test: (b: Uint8Array) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  {
    ext: 'gif',
    type: 'image/gif',
    test: (b: Uint8Array) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a',
  },
  { ext: 'webp', type: 'image/webp', test: (b: Uint8Array) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
  {
    ext: 'avif',
    type: 'image/avif',
    test: (b: Uint8Array) => ascii(b, 4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(b, 8, 12)),
  },
] as const;

function starts(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((byte, i) => bytes[i] === byte);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** The image type of a file decided from its first bytes, never from its name or declared type. */
export function sniffImageType(bytes: Uint8Array): (typeof IMAGE_TYPES)[number] | undefined {
  return IMAGE_TYPES.find((candidate) => candidate.test(bytes));
}

/** POST /api/images (admin): a doctor's photo, multipart field `image`; stored in R2 under doctors/<random>. */
export async function uploadImage(request: Request, env: Env): Promise<Response> {
  const contentType = request.headers.get('Content-Type') ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
    throw new HttpError(415, 'Send the photo as multipart/form-data in the field "image"');
  }
  const limit = MAX_IMAGE_BYTES + MULTIPART_OVERHEAD;
  const tooBig = new HttpError(413, 'The photo is larger than 2 MB');
  if (Number(request.headers.get('Content-Length') ?? '0') > limit) throw tooBig;
  const body = await readAtMost(request, limit).catch((error: unknown) => {
    throw error instanceof HttpError && error.status === 413 ? tooBig : error;
  });
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw new HttpError(400, 'The upload is not valid multipart/form-data');
  }
  const file = form.get('image');
  if (!file || typeof file === 'string' || file.size === 0)
    throw new HttpError(400, 'Photo is required (field "image")');
  if (file.size > MAX_IMAGE_BYTES) throw tooBig;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffImageType(bytes);
  if (!type) throw new HttpError(415, 'Only JPEG, PNG, WebP, GIF or AVIF images are accepted');

  const key = `doctors/${crypto.randomUUID().replaceAll('-', '')}.${type.ext}`;
  await env.PHOTOS.put(key, bytes, { httpMetadata: { contentType: type.type } });
  return json({ success: true, data: { url: imageUrl(key) } } satisfies UploadedImage, 201);
}

/** GET /api/images/:key: a stored photo, cacheable forever (keys are never reused). */
export async function getImage(request: Request & { params: Record<string, string> }, env: Env): Promise<Response> {
  const key = inputOf(request, 'GET /images/:key+').params.key;
  const object = isImageKey(key) ? await env.PHOTOS.get(key) : null;
  if (!object) throw new HttpError(404, 'No such image');
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set('ETag', object.httpEtag);
  headers.set('Cache-Control', 'public, max-age=31536000, immutable');
  headers.set('X-Content-Type-Options', 'nosniff');
  return new Response(object.body, { headers });
}
