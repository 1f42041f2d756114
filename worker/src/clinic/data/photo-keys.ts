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

/** Whether a key names one of our photos (a review's or a doctor's). */
export function isImageKey(key: string): boolean {
  return IMAGE_KEY.test(key);
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
  return isImageKey(key) ? key : null;
}
