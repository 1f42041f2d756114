import type { UploadedImage } from '../../../../../contract/doctors.ts';
import { client } from '../../../lib/client.ts';
import { ApiError } from '../../../lib/http.ts';

/** The Worker's limits for a doctor's photo (worker/src/clinic/images.ts), checked here before uploading. */
export const MAX_PHOTO_BYTES = 2 * 1024 * 1024;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'];
export const PHOTO_TYPE_MESSAGE = 'Only JPEG, PNG, WebP, GIF or AVIF images are accepted';
export const PHOTO_SIZE_MESSAGE = 'The photo is larger than 2 MB';

/**
 * Why a chosen file cannot be a doctor's photo, in the Worker's own words, or null when it may be uploaded.
 * The Worker decides the type from the file's bytes; this only spares a pointless upload.
 */
export function photoProblem(file: File): string | null {
  if (!PHOTO_TYPES.includes(file.type.toLowerCase())) return PHOTO_TYPE_MESSAGE;
  if (file.size > MAX_PHOTO_BYTES) return PHOTO_SIZE_MESSAGE;
  return null;
}

/** POST /api/images (admin): multipart field `image`; answers the stored photo's URL. */
export async function uploadPhoto(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  // No Content-Type here: the browser sets multipart/form-data with its boundary.
  const result: UploadedImage | undefined = await client('POST /images', { body: form });
  const url = result?.success ? result.data?.url : undefined;
  if (!url) throw new ApiError(200, 'The photo could not be uploaded, please try again');
  return url;
}
