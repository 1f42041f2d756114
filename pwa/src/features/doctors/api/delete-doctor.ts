import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { DoctorDeleted } from '../../../../../contract/doctors.ts';
import { api } from '../../../lib/api.ts';
import { DOCTORS_KEY, isAppointmentOptionsKey, TEAM_KEY } from '../../../lib/cache-keys.ts';
import { ApiError } from '../../../lib/http.ts';

/**
 * DELETE /api/doctors/:id[?force=true] (admin): the Worker removes the doctor and their photo. A
 * doctor with upcoming bookings is refused (409, listing them) unless `force`: then the bookings
 * stay, without a doctor, for the front desk.
 */
export function deleteDoctor(id: string, force = false): Promise<DoctorDeleted> {
  return api(`/doctors/${encodeURIComponent(id)}${force ? '?force=true' : ''}`, { method: 'DELETE' });
}

/**
 * Deletes the doctor; the doctors list is reloaded before this resolves (and the home page's team
 * and the free slots after it). A 404 (deleted elsewhere meanwhile) reloads it too, to show the
 * list as it is now.
 */
export function useDeleteDoctor() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (id: string, force = false) => {
      let result: DoctorDeleted;
      try {
        result = await deleteDoctor(id, force);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) void mutate(DOCTORS_KEY);
        throw error;
      }
      void mutate(isAppointmentOptionsKey);
      void mutate(TEAM_KEY);
      await mutate(DOCTORS_KEY);
      return result;
    },
    [mutate],
  );
}
