// A stand-in for Stripe.js (which cannot load offline) that `<Elements>` accepts: it creates a card
// element that mounts into the page, fires `ready` and `change` when a test says so, and a
// confirmCardPayment that succeeds by default and can be made to decline or to hang.
import type { PaymentIntentResult, Stripe } from '@stripe/stripe-js';
import { vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

export function createFakeStripe({ readyOnMount = true }: { readyOnMount?: boolean } = {}) {
  const listeners = new Map<string, Set<Listener>>();
  let mounted = false;

  const emit = (event: string, payload?: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };

  const card = {
    mount: vi.fn((node: HTMLElement) => {
      const frame = document.createElement('div');
      frame.dataset.fakeStripe = 'card';
      node.append(frame);
      mounted = true;
    }),
    on: vi.fn((event: string, listener: Listener) => {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      // Stripe fires `ready` once its iframe has loaded, always after React attached the listener.
      if (event === 'ready' && readyOnMount && mounted) queueMicrotask(() => listener());
      return card;
    }),
    off: vi.fn((event: string, listener: Listener) => {
      listeners.get(event)?.delete(listener);
      return card;
    }),
    update: vi.fn(),
    destroy: vi.fn(() => {
      mounted = false;
    }),
  };

  const elements = {
    create: vi.fn(() => card),
    getElement: vi.fn(() => (mounted ? card : null)),
    update: vi.fn(),
  };

  const confirmCardPayment = vi.fn(
    async (clientSecret: string, _data?: unknown): Promise<PaymentIntentResult> =>
      ({
        paymentIntent: { id: clientSecret.split('_secret_')[0], status: 'succeeded' },
      }) as PaymentIntentResult,
  );

  const stripe = {
    elements: vi.fn(() => elements),
    createToken: vi.fn(),
    createPaymentMethod: vi.fn(),
    confirmCardPayment,
  } as unknown as Stripe;

  return {
    stripe,
    card,
    elements,
    confirmCardPayment,
    /** The card element's iframe has loaded. */
    ready: () => emit('ready'),
    /** The patient typed into the card element (e.g. `{ complete: false, error: { message } }`). */
    change: (event: { complete: boolean; error?: { message: string } }) =>
      emit('change', { elementType: 'card', empty: false, ...event }),
    /** Stripe declines the card with its own message. */
    decline: (message = 'Your card was declined.') =>
      confirmCardPayment.mockResolvedValueOnce({
        error: { type: 'card_error', code: 'card_declined', message },
      } as PaymentIntentResult),
    /** The next confirmation hangs until the returned function is called with its result. */
    hold() {
      let release: (result?: PaymentIntentResult) => void = () => {};
      confirmCardPayment.mockImplementationOnce(
        (clientSecret) =>
          new Promise((resolve) => {
            release = (result) =>
              resolve(
                result ??
                  ({
                    paymentIntent: { id: clientSecret.split('_secret_')[0], status: 'succeeded' },
                  } as PaymentIntentResult),
              );
          }),
      );
      return (result?: PaymentIntentResult) => release(result);
    },
  };
}

export type FakeStripe = ReturnType<typeof createFakeStripe>;
