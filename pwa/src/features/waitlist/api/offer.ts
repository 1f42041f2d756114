import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { OfferAccepted, OfferDeclined, WaitlistOffer } from '../../../../../contract/messages.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import { isMyBookingsKey, isMyWaitlistKey, offerKey } from '../../../lib/cache-keys.ts';

export type { WaitlistOffer };

/** GET /api/waitlist/offers/:id (the offer's patient). */
export function useOffer(id: string) {
  return useSWR<WaitlistOffer>(offerKey(id), apiFetcher<WaitlistOffer>);
}

/** POST /api/waitlist/offers/:id/accept or /decline, then reloads the offer, the waitlist and (accepted) the bookings. */
export function useAnswerOffer() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (id: string, answer: 'accept' | 'decline'): Promise<OfferAccepted | OfferDeclined> => {
      try {
        return await api<OfferAccepted | OfferDeclined>(`/waitlist/offers/${encodeURIComponent(id)}/${answer}`, {
          method: 'POST',
        });
      } finally {
        void mutate(isMyWaitlistKey);
        if (answer === 'accept') void mutate(isMyBookingsKey);
        await mutate(offerKey(id));
      }
    },
    [mutate],
  );
}
