import { api } from '../../../lib/api.ts';

/** DELETE /api/doctors/:id (admin): the Worker removes the doctor and their photo. */
export function deleteDoctor(id: string): Promise<{ acknowledged: boolean; deletedCount: number }> {
  return api(`/doctors/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
