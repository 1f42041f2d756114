import useSWR from 'swr';
import type { TeamMember } from '../../../contract/doctors.ts';
import { apiFetcher } from './api.ts';
import { TEAM_KEY } from './cache-keys.ts';

export type { TeamMember };

/** GET /api/team (anyone): the doctors' names, specialties and photos, for the home page. */
export function useTeam() {
  return useSWR<TeamMember[]>(TEAM_KEY, apiFetcher<TeamMember[]>);
}
