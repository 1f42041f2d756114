import type { DoctorDeleted } from '../../../../../contract/doctors.ts';
import { api } from '../../../lib/api.ts';

/** DELETE /api/doctors/:id (admin): the Worker removes the doctor and their photo. */
export function deleteDoctor(id: string): Promise<DoctorDeleted> {
  return api(`/doctors/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
