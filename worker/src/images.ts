import type { UploadedImage } from '../../contract/doctors.ts';
import { requireAdmin } from './auth.ts';
import type { Env } from './env.ts';
import { HttpError, json, readAtMost } from './http.ts';

/**
 * Photo keys are random (unguessable) names with an image extension; nothing else is looked up.
 * Doctors' photos live under their own prefix, so a doctor can only ever point at (and, when
 * deleted, remove) a photo uploaded for doctors, never a review's or anyone else's.
 */
const PHOTO_NAME = '[A-Za-z0-9_-]{8,64}\\.(?:jpg|png|webp|gif|avif)';
const IMAGE_KEY = new RegExp(`^(?:doctors/)?${PHOTO_NAME}$`);
const DOCTOR_PHOTO_KEY = new RegExp(`^doctors/${PHOTO_NAME}$`);

export function isDoctorPhotoKey(key: string): boolean {
  return DOCTOR_PHOTO_KEY.test(key);
}
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

export function imageUrl(key: string): string {
  return `/api/images/${key}`;
}

/** The R2 key inside one of our photo URLs (relative or absolute), or null. */
export function imageKeyOf(url: string): string | null {
  let path: string;
  try {
    path = new URL(url, 'https://clinic.invalid').pathname;
  } catch {
    return null;
  }
  const key = path.startsWith('/api/images/') ? path.slice('/api/images/'.length) : '';
  return IMAGE_KEY.test(key) ? key : null;
}

/** POST /api/images (admin): a doctor's photo, multipart field `image`; stored in R2 under doctors/<random>. */
export async function uploadImage(request: Request, env: Env): Promise<Response> {
  await requireAdmin(request, env);
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
