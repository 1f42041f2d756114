import type { DoctorChanges, DoctorUpdated } from '../../../../../contract/doctors.ts';
import { api } from '../../../lib/api.ts';

export type { DoctorChanges };

/**
 * PUT /api/doctors/:id (admin): the fields sent change. Days or hours that leave the doctor's
 * upcoming bookings outside them are refused (409, listing them) unless `force`.
 */
export function updateDoctor(id: string, changes: DoctorChanges): Promise<DoctorUpdated> {
  return api<DoctorUpdated>(`/doctors/${encodeURIComponent(id)}`, { method: 'PUT', body: JSON.stringify(changes) });
}
