import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { DoctorDeleted } from '../../../../../contract/doctors.ts';
import { api } from '../../../lib/api.ts';
import { DOCTORS_KEY } from '../../../lib/cache-keys.ts';
import { ApiError } from '../../../lib/http.ts';

/** DELETE /api/doctors/:id (admin): the Worker removes the doctor and their photo. */
export function deleteDoctor(id: string): Promise<DoctorDeleted> {
  return api(`/doctors/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/**
 * Deletes the doctor; the doctors list is reloaded before this resolves. A 404 (deleted elsewhere
 * meanwhile) reloads it too, to show the list as it is now.
 */
export function useDeleteDoctor() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (id: string) => {
      let result: Awaited<ReturnType<typeof deleteDoctor>>;
      try {
        result = await deleteDoctor(id);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) void mutate(DOCTORS_KEY);
        throw error;
      }
      await mutate(DOCTORS_KEY);
      return result;
    },
    [mutate],
  );
}
