import type { DoctorDeleted } from '../../../../../contract/doctors.ts';
import { api } from '../../../lib/api.ts';

/**
 * DELETE /api/doctors/:id[?force=true] (admin): the Worker removes the doctor and their photo. A
 * doctor with upcoming bookings is refused (409, listing them) unless `force`: then the bookings
 * stay, without a doctor, for the front desk.
 */
export function deleteDoctor(id: string, force = false): Promise<DoctorDeleted> {
  return api(`/doctors/${encodeURIComponent(id)}${force ? '?force=true' : ''}`, { method: 'DELETE' });
}
