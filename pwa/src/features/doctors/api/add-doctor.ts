import type { DoctorAdded, NewDoctor } from '../../../../../contract/doctors.ts';
import { client } from '../../../lib/client.ts';

/** `image` is the URL answered by POST /api/images (see upload-photo.ts); without `workingDays` and `hours` the doctor works every day, 09:00–17:00. */
export type { NewDoctor };

/** POST /api/doctors (admin); a second doctor with the same email is refused (409). */
export function addDoctor(doctor: NewDoctor): Promise<DoctorAdded> {
  return client('POST /doctors', { body: doctor });
}
