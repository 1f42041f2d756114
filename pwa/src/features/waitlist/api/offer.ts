import useSWR from 'swr';
import type { OfferAccepted, OfferDeclined, WaitlistOffer } from '../../../../../contract/messages.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { offerKey } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';

export type { WaitlistOffer };

/** GET /api/waitlist/offers/:id (the offer's patient). */
export function useOffer(id: string) {
  return useSWR<WaitlistOffer>(offerKey(id), apiFetcher<WaitlistOffer>);
}

/** POST /api/waitlist/offers/:id/accept or /decline. */
export function answerOffer(id: string, answer: 'accept' | 'decline'): Promise<OfferAccepted | OfferDeclined> {
  return client(`POST /waitlist/offers/:id/${answer}`, { params: { id } });
}
