import type { StrandDryRun } from '../../../../../contract/bookings.ts';
import type { DoctorChanges, DoctorUpdated } from '../../../../../contract/doctors.ts';
import { changeQuery, type Resolution } from '../../../components/use-schedule-change.ts';
import { api } from '../../../lib/api.ts';

export type { DoctorChanges };

/**
 * PUT /api/doctors/:id (admin): the fields sent change. Days or hours that leave the doctor's
 * upcoming bookings outside them are refused (409, listing them) unless kept; 'ask' only lists them.
 */
export function updateDoctor(
  id: string,
  changes: DoctorChanges,
  resolution: Resolution = 'refuse',
): Promise<DoctorUpdated | StrandDryRun> {
  return api(`/doctors/${encodeURIComponent(id)}${changeQuery(resolution)}`, {
    method: 'PUT',
    body: JSON.stringify({ ...changes, force: resolution === 'keep' }),
  });
}
