/**
 * How a patient who books a treatment online pays (issue 45): 'full' pays the whole price online
 * before the hold ends, 'deposit' pays `depositPercent` of it online before the hold ends and the
 * rest at the desk, 'card' keeps the visit with a card on file and no hold (the clinic's no-show and
 * late-cancel fees may be charged to it), 'clinic' keeps it with nothing paid online.
 */
export const PAYMENT_RULES = ['full', 'deposit', 'card', 'clinic'] as const;
export type PaymentRule = (typeof PAYMENT_RULES)[number];
