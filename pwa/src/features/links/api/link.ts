import useSWR from 'swr';
import type { LinkBooked, LinkDone, LinkInfo, Proposal } from '../../../../../contract/links.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { client } from '../../../lib/client.ts';
import { pathOf } from '../../../lib/route-paths.ts';

export type { LinkBooked, LinkInfo, Proposal };

const linkKey = (token: string) => pathOf('GET /links/:token', { params: { token } });

/** GET /api/links/:token: what a message's link is for (changes nothing). Not retried: a 4xx is the answer. */
export function useLink(token: string) {
  return useSWR<LinkInfo>(linkKey(token), apiFetcher<LinkInfo>, {
    shouldRetryOnError: false,
    revalidateOnFocus: false,
  });
}

/** POST /api/links/:token/confirm, /callback or /cancel. */
export function answerLink(token: string, action: 'confirm' | 'callback' | 'cancel'): Promise<LinkDone> {
  return client(`POST /links/:token/${action}`, { params: { token } });
}

/** POST /api/links/:token/book: books one of a recall's proposed times. */
export function bookFromLink(token: string, proposal: Proposal): Promise<LinkBooked> {
  return client('POST /links/:token/book', {
    params: { token },
    body: { appointmentDate: proposal.appointmentDate, slot: proposal.slot },
  });
}
