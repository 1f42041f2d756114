import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { DoctorAdded, NewDoctor } from '../../../../../contract/doctors.ts';
import { api } from '../../../lib/api.ts';
import { DOCTORS_KEY, isAppointmentOptionsKey, TEAM_KEY } from '../../../lib/cache-keys.ts';

/** `image` is the URL answered by POST /api/images (see upload-photo.ts); without `workingDays` and `hours` the doctor works every day, 09:00–17:00. */
export type { NewDoctor };

/** POST /api/doctors (admin); a second doctor with the same email is refused (409). */
export function addDoctor(doctor: NewDoctor): Promise<DoctorAdded> {
  return api<DoctorAdded>('/doctors', { method: 'POST', body: JSON.stringify(doctor) });
}

/** Adds the doctor; Manage Doctors, the home page's team and the free slots then show no list cached before this doctor existed. */
export function useAddDoctor() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (doctor: NewDoctor): Promise<DoctorAdded> => {
      const result = await addDoctor(doctor);
      void mutate(DOCTORS_KEY);
      void mutate(TEAM_KEY);
      void mutate(isAppointmentOptionsKey);
      return result;
    },
    [mutate],
  );
}
