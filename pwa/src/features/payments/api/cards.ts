import useSWR from 'swr';
import type { Deleted } from '../../../../../contract/answers.ts';
import type { Statement } from '../../../../../contract/fees.ts';
import type { DemoCard } from '../../../../../contract/payments.ts';
import type { CardSaved, CardSetup, SavedCard } from '../../../../../contract/saved-cards.ts';
import { api } from '../../../lib/api.ts';
import { type MyCardsKey, type MyStatementKey, myCardsKey, myStatementKey } from '../../../lib/cache-keys.ts';

export type { CardSetup, SavedCard, Statement };

/** GET /api/users/me/cards: the signed-in patient's cards on file, newest (the one charged) first. */
export function useCards(email: string | null | undefined, refreshInterval = 0) {
  return useSWR<SavedCard[], unknown, MyCardsKey | null>(
    email ? myCardsKey(email) : null,
    () => api<SavedCard[]>('/users/me/cards'),
    { refreshInterval },
  );
}

/** POST /api/users/me/cards: a setup to save a card with (nothing is charged). */
export const startCardSetup = () => api<CardSetup>('/users/me/cards', { method: 'POST' });

/** The demo provider saves the card of a setup (Stripe's test cards; a refusal is an ApiError in Stripe's words). */
export const confirmDemoSetup = (clientSecret: string, card: DemoCard) =>
  api<CardSaved>('/demo-payments/confirm', { method: 'POST', body: JSON.stringify({ clientSecret, card }) });

/** DELETE /api/users/me/cards/:id. */
export const removeCard = (id: string) =>
  api<Deleted>(`/users/me/cards/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** GET /api/users/me/statement: what the account was charged, paid and refunded, per person. */
export function useStatement(email: string | null | undefined) {
  return useSWR<Statement, unknown, MyStatementKey | null>(email ? myStatementKey(email) : null, () =>
    api<Statement>('/users/me/statement'),
  );
}
