import * as v from 'valibot';
import { Deleted, Inserted } from './answers.ts';
import { email, text } from './fields.ts';

export const Doctor = v.strictObject({
  _id: v.string(),
  name: v.string(),
  email: v.string(),
  specialty: v.string(),
  /** The photo's URL (/api/images/doctors/…). */
  image: v.string(),
});
export type Doctor = v.InferOutput<typeof Doctor>;

/** POST /api/doctors: `image` is the URL answered by POST /api/images, used by no other doctor. */
export const NewDoctor = v.object({
  name: text('name', 100),
  email: email('email'),
  specialty: text('specialty', 100),
  image: text('image', 500),
});
export type NewDoctor = v.InferInput<typeof NewDoctor>;

export const DoctorAdded = Inserted;
export type DoctorAdded = Inserted;
export const DoctorDeleted = Deleted;
export type DoctorDeleted = Deleted;

/** POST /api/images (multipart field `image`): the stored photo's URL, in the shape of the spec's image host. */
export const UploadedImage = v.strictObject({ success: v.literal(true), data: v.strictObject({ url: v.string() }) });
export type UploadedImage = v.InferOutput<typeof UploadedImage>;
