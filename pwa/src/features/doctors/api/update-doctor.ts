import type { StrandDryRun } from '../../../../../contract/bookings.ts';
import type { DoctorChanges, DoctorUpdated } from '../../../../../contract/doctors.ts';
import { changeQuery, type Resolution } from '../../../components/use-schedule-change.ts';
import { client } from '../../../lib/client.ts';

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
  return client('PUT /doctors/:id', {
    params: { id },
    query: changeQuery(resolution),
    body: { ...changes, force: resolution === 'keep' },
  });
}
