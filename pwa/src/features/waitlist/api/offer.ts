import useSWR from 'swr';
import type { OfferAccepted, OfferDeclined, WaitlistOffer } from '../../../../../contract/messages.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import { offerKey } from '../../../lib/cache-keys.ts';

export type { WaitlistOffer };

/** GET /api/waitlist/offers/:id (the offer's patient). */
export function useOffer(id: string) {
  return useSWR<WaitlistOffer>(offerKey(id), apiFetcher<WaitlistOffer>);
}

/** POST /api/waitlist/offers/:id/accept or /decline. */
export function answerOffer(id: string, answer: 'accept' | 'decline'): Promise<OfferAccepted | OfferDeclined> {
  return api<OfferAccepted | OfferDeclined>(`/waitlist/offers/${encodeURIComponent(id)}/${answer}`, {
    method: 'POST',
  });
}
