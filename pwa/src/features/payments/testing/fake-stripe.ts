// A stand-in for Stripe.js (which cannot load offline) that `<Elements>` accepts: it creates a
// Payment Element that mounts into the page and fires `ready` when a test says so, and a
// confirmPayment that succeeds by default and can be made to decline or to hang.
import type { PaymentIntentResult, Stripe } from '@stripe/stripe-js';
import { vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

export function createFakeStripe({ readyOnMount = true }: { readyOnMount?: boolean } = {}) {
  const listeners = new Map<string, Set<Listener>>();
  let mounted = false;

  const emit = (event: string, payload?: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };

  const element = {
    mount: vi.fn((node: HTMLElement) => {
      const frame = document.createElement('div');
      frame.dataset.fakeStripe = 'payment';
      node.append(frame);
      mounted = true;
    }),
    on: vi.fn((event: string, listener: Listener) => {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      // Stripe fires `ready` once its iframe has loaded, always after React attached the listener.
      if (event === 'ready' && readyOnMount && mounted) queueMicrotask(() => listener());
      return element;
    }),
    off: vi.fn((event: string, listener: Listener) => {
      listeners.get(event)?.delete(listener);
      return element;
    }),
    update: vi.fn(),
    destroy: vi.fn(() => {
      mounted = false;
    }),
  };

  let clientSecret = '';
  const elements = {
    create: vi.fn((_type: string, _options?: unknown) => element),
    getElement: vi.fn(() => (mounted ? element : null)),
    update: vi.fn(),
    submit: vi.fn(async () => ({})),
  };

  const succeeded = (): PaymentIntentResult =>
    ({ paymentIntent: { id: clientSecret.split('_secret_')[0], status: 'succeeded' } }) as PaymentIntentResult;
  const confirmPayment = vi.fn(async (_options: unknown): Promise<PaymentIntentResult> => succeeded());

  const stripe = {
    elements: vi.fn((options?: { clientSecret?: string }) => {
      clientSecret = options?.clientSecret ?? '';
      return elements;
    }),
    createToken: vi.fn(),
    createPaymentMethod: vi.fn(),
    // <Elements> recognises Stripe.js by it; the Payment Element confirms with confirmPayment.
    confirmCardPayment: vi.fn(),
    confirmPayment,
  } as unknown as Stripe;

  return {
    stripe,
    element,
    elements,
    confirmPayment,
    /** The Payment Element's iframe has loaded. */
    ready: () => emit('ready'),
    /** Stripe declines the payment with its own message. */
    decline: (message = 'Your card was declined.') =>
      confirmPayment.mockResolvedValueOnce({
        error: { type: 'card_error', code: 'card_declined', message },
      } as PaymentIntentResult),
    /** The next confirmation hangs until the returned function is called with its result. */
    hold() {
      let release: (result?: PaymentIntentResult) => void = () => {};
      confirmPayment.mockImplementationOnce(
        () => new Promise((resolve) => (release = (result) => resolve(result ?? succeeded()))),
      );
      return (result?: PaymentIntentResult) => release(result);
    },
  };
}

export type FakeStripe = ReturnType<typeof createFakeStripe>;
