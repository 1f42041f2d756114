import type { StrandDryRun } from '../../../../../contract/bookings.ts';
import type { DoctorDeleted } from '../../../../../contract/doctors.ts';
import { changeQuery, type Resolution } from '../../../components/use-schedule-change.ts';
import { client } from '../../../lib/client.ts';

/**
 * DELETE /api/doctors/:id[?force=true] (admin): the Worker removes the doctor and their photo. A
 * doctor with upcoming bookings is refused (409, listing them) unless `force`: then the bookings
 * stay, without a doctor, for the front desk; 'ask' only lists them (a dry run).
 */
export function deleteDoctor(id: string, resolution: Resolution = 'refuse'): Promise<DoctorDeleted | StrandDryRun> {
  return client('DELETE /doctors/:id', { params: { id }, query: changeQuery(resolution, { forceInQuery: true }) });
}
