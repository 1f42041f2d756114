import useSWR from 'swr';
import type { LinkForms } from '../../../../../contract/links.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { pathOf } from '../../../lib/route-paths.ts';

/** GET /api/links/:token/forms: a forms link's visit and forms (the kiosk's too), without an account. */
export const linkFormsKey = (token: string) => pathOf('GET /links/:token/forms', { params: { token } });

export function useLinkForms(token: string | null) {
  return useSWR<LinkForms>(token ? linkFormsKey(token) : null, apiFetcher<LinkForms>);
}
