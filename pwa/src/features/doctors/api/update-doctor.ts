import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { DoctorChanges, DoctorUpdated } from '../../../../../contract/doctors.ts';
import { api } from '../../../lib/api.ts';
import { DOCTORS_KEY, isAppointmentOptionsKey, TEAM_KEY } from '../../../lib/cache-keys.ts';

export type { DoctorChanges };

/**
 * PUT /api/doctors/:id (admin): the fields sent change. Days or hours that leave the doctor's
 * upcoming bookings outside them are refused (409, listing them) unless `force`.
 */
export function updateDoctor(id: string, changes: DoctorChanges): Promise<DoctorUpdated> {
  return api<DoctorUpdated>(`/doctors/${encodeURIComponent(id)}`, { method: 'PUT', body: JSON.stringify(changes) });
}

/** Changes the doctor; the doctors list is current before this resolves, and every day's free slots reload. */
export function useUpdateDoctor() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (id: string, changes: DoctorChanges): Promise<DoctorUpdated> => {
      const result = await updateDoctor(id, changes);
      void mutate(isAppointmentOptionsKey);
      void mutate(TEAM_KEY);
      await mutate(DOCTORS_KEY);
      return result;
    },
    [mutate],
  );
}
