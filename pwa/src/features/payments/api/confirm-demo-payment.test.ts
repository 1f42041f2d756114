import { describe, expect, it } from 'vitest';
import { parseDemoCard } from './confirm-demo-payment.ts';

describe('the demo card as typed', () => {
  it('becomes the card the demo provider takes: digits only, month and year as numbers', () => {
    expect(parseDemoCard({ number: '4242 4242 4242 4242', expiry: '12/34', cvc: ' 123 ' })).toEqual({
      card: { number: '4242424242424242', expMonth: 12, expYear: 34, cvc: '123' },
    });
    expect(parseDemoCard({ number: '4000-0000-0000-0002', expiry: '3 / 2031', cvc: '1234' })).toEqual({
      card: { number: '4000000000000002', expMonth: 3, expYear: 2031, cvc: '1234' },
    });
    expect(parseDemoCard({ number: '4242424242424242', expiry: '0128', cvc: '123' })).toEqual({
      card: { number: '4242424242424242', expMonth: 1, expYear: 28, cvc: '123' },
    });
  });

  it('names what is missing with Stripe’s words', () => {
    expect(parseDemoCard({ number: ' ', expiry: '12/34', cvc: '123' })).toEqual({
      error: 'Your card number is incomplete.',
    });
    expect(parseDemoCard({ number: '4242424242424242', expiry: '12', cvc: '123' })).toEqual({
      error: "Your card's expiration date is incomplete.",
    });
    expect(parseDemoCard({ number: '4242424242424242', expiry: '12/34', cvc: '' })).toEqual({
      error: "Your card's security code is incomplete.",
    });
  });
});
