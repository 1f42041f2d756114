/** The SQL of cards on file (migration 0023): an account's saved cards, its setups and its customer at the provider. */
import type { SavedCard } from '../../../../contract/saved-cards.ts';

export type CardProvider = 'stripe' | 'demo';

export interface SavedCardRow {
  id: string;
  user_id: string;
  provider: CardProvider;
  payment_method_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export const toSavedCard = (row: SavedCardRow): SavedCard => ({
  _id: row.id,
  brand: row.brand,
  last4: row.last4,
  expMonth: row.exp_month,
  expYear: row.exp_year,
});

const CARD_COLUMNS = 'id, user_id, provider, payment_method_id, brand, last4, exp_month, exp_year';

/** Whether the account a patient books under (their guardian's, for a dependant) has a card on file. */
export const hasSavedCard = async (db: D1Database, patientId: string): Promise<boolean> =>
  (await db
    .prepare(
      'SELECT 1 FROM saved_cards WHERE user_id = coalesce((SELECT guardian_id FROM users WHERE id = ?1), ?1) LIMIT 1',
    )
    .bind(patientId)
    .first()) !== null;

/** The account's cards, newest first: the first is the one charged. */
export const cardsOf = (db: D1Database, accountId: string): Promise<SavedCardRow[]> =>
  db
    .prepare(`SELECT ${CARD_COLUMNS} FROM saved_cards WHERE user_id = ?1 ORDER BY created_at DESC, id`)
    .bind(accountId)
    .all<SavedCardRow>()
    .then((r) => r.results);

/** Saves a card set up for the account by setup `setupId`; the same setup or payment method twice is saved once. */
export const insertCard = (db: D1Database, card: SavedCardRow, setupId: string, at: string) =>
  db
    .prepare(
      `INSERT INTO saved_cards (id, user_id, provider, payment_method_id, brand, last4, exp_month, exp_year, created_at,
         setup_id)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT DO NOTHING`,
    )
    .bind(
      card.id,
      card.user_id,
      card.provider,
      card.payment_method_id,
      card.brand,
      card.last4,
      card.exp_month,
      card.exp_year,
      at,
      setupId,
    );

/** The card a setup saved, or null. */
export const cardOfSetup = (db: D1Database, setupId: string) =>
  db.prepare(`SELECT ${CARD_COLUMNS} FROM saved_cards WHERE setup_id = ?1`).bind(setupId).first<SavedCardRow>();

/** The card saved under a payment method, or null. */
export const cardOfMethod = (db: D1Database, paymentMethodId: string) =>
  db
    .prepare(`SELECT ${CARD_COLUMNS} FROM saved_cards WHERE payment_method_id = ?1`)
    .bind(paymentMethodId)
    .first<SavedCardRow>();

/** Removes one of the account's cards (0 changes: none such). */
export const deleteCard = (db: D1Database, accountId: string, id: string) =>
  db.prepare('DELETE FROM saved_cards WHERE id = ?1 AND user_id = ?2').bind(id, accountId);

/** A setup handed to the account (its provider's SetupIntent id). */
export const insertSetup = (db: D1Database, id: string, accountId: string, provider: CardProvider, at: string) =>
  db
    .prepare(
      'INSERT INTO card_setups (id, user_id, provider, created_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING',
    )
    .bind(id, accountId, provider, at);

/** The account a setup was handed to, or null. */
export const setupOwner = (db: D1Database, id: string) =>
  db
    .prepare('SELECT user_id FROM card_setups WHERE id = ?1')
    .bind(id)
    .first<{ user_id: string }>()
    .then((row) => row?.user_id ?? null);

/** The account's customer at the provider, or null. */
export const customerOf = (db: D1Database, accountId: string) =>
  db
    .prepare('SELECT customer_id FROM payment_customers WHERE user_id = ?1')
    .bind(accountId)
    .first<{ customer_id: string }>()
    .then((row) => row?.customer_id ?? null);

/** Remembers the account's customer (the first one stays). */
export const insertCustomer = (db: D1Database, accountId: string, provider: CardProvider, customerId: string) =>
  db
    .prepare(
      'INSERT INTO payment_customers (user_id, provider, customer_id) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING',
    )
    .bind(accountId, provider, customerId);
