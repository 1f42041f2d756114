import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { LinkBooked, LinkDone, LinkInfo, Proposal } from '../../../../../contract/links.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import { isMyBookingsKey } from '../../../lib/cache-keys.ts';

export type { LinkInfo, Proposal };

const linkKey = (token: string) => `/links/${encodeURIComponent(token)}`;

/** GET /api/links/:token: what a message's link is for (changes nothing). Not retried: a 4xx is the answer. */
export function useLink(token: string) {
  return useSWR<LinkInfo>(linkKey(token), apiFetcher<LinkInfo>, {
    shouldRetryOnError: false,
    revalidateOnFocus: false,
  });
}

/** POST /api/links/:token/confirm, /callback or /cancel, then reloads the link and the patient's bookings. */
export function useLinkAction() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (token: string, action: 'confirm' | 'callback' | 'cancel'): Promise<LinkDone> => {
      const done = await api<LinkDone>(`${linkKey(token)}/${action}`, { method: 'POST' });
      void mutate(isMyBookingsKey);
      return done;
    },
    [mutate],
  );
}

/** POST /api/links/:token/book: books one of a recall's proposed times. */
export function useBookFromLink() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (token: string, proposal: Proposal): Promise<LinkBooked> => {
      const booked = await api<LinkBooked>(`${linkKey(token)}/book`, {
        method: 'POST',
        body: JSON.stringify({ appointmentDate: proposal.appointmentDate, slot: proposal.slot }),
      });
      void mutate(isMyBookingsKey);
      return booked;
    },
    [mutate],
  );
}
