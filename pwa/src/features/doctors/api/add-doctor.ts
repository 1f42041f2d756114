import { api } from '../../../lib/api.ts';

/** `image` is the URL answered by POST /api/images (see upload-photo.ts). */
export type NewDoctor = { name: string; email: string; specialty: string; image: string };

export type AddDoctorResult = { acknowledged: boolean; insertedId: string };

/** POST /api/doctors (admin); a second doctor with the same email is refused (409). */
export function addDoctor(doctor: NewDoctor): Promise<AddDoctorResult> {
  return api<AddDoctorResult>('/doctors', { method: 'POST', body: JSON.stringify(doctor) });
}
