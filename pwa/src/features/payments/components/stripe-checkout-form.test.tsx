import type { Stripe } from '@stripe/stripe-js';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createFakeStripe } from '../testing/fake-stripe.ts';
import { StripeCheckoutForm, type StripeCheckoutFormProps } from './stripe-checkout-form.tsx';

const billing = { name: 'Pat Patient', email: 'patient@clinic.test' };
const payButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Pay' });

function renderForm(props: Partial<StripeCheckoutFormProps> & Pick<StripeCheckoutFormProps, 'stripe'>) {
  const onConfirmed = vi.fn();
  const view = render(
    <StripeCheckoutForm clientSecret="pi_1_secret_x" billing={billing} online onConfirmed={onConfirmed} {...props} />,
  );
  return { onConfirmed, view };
}

describe('Stripe card form', () => {
  it('keeps Pay disabled while Stripe.js is still loading', async () => {
    const fake = createFakeStripe();
    let resolve: (stripe: Stripe) => void = () => {};
    renderForm({ stripe: new Promise<Stripe>((r) => (resolve = r)) });

    expect(screen.getByRole('group', { name: 'Card details' })).toBeTruthy();
    expect(screen.getByLabelText('Card details')).toBeTruthy();
    expect(payButton().disabled).toBe(true);
    expect(fake.card.mount).not.toHaveBeenCalled();

    await act(async () => resolve(fake.stripe));
    await waitFor(() => expect(payButton().disabled).toBe(false));
  });

  it('keeps Pay disabled without a client secret, even with the card ready', async () => {
    const fake = createFakeStripe();
    const { view, onConfirmed } = renderForm({ stripe: fake.stripe, clientSecret: null });
    await waitFor(() => expect(fake.card.mount).toHaveBeenCalled());
    await act(async () => {});
    expect(payButton().disabled).toBe(true);

    view.rerender(
      <StripeCheckoutForm
        stripe={fake.stripe}
        clientSecret="pi_1_secret_x"
        billing={billing}
        online
        onConfirmed={onConfirmed}
      />,
    );
    expect(payButton().disabled).toBe(false);
  });

  it('shows the card element’s own validation message in red as the patient types', async () => {
    const fake = createFakeStripe();
    renderForm({ stripe: fake.stripe });
    await waitFor(() => expect(payButton().disabled).toBe(false));

    act(() => fake.change({ complete: false, error: { message: 'Your card number is invalid.' } }));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Your card number is invalid.');
    expect(alert.className).toContain('form-error');

    act(() => fake.change({ complete: true }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('reports the PaymentIntent id once Stripe says succeeded, and nothing on a decline', async () => {
    const fake = createFakeStripe();
    const { onConfirmed } = renderForm({ stripe: fake.stripe });
    const user = userEvent.setup();
    await waitFor(() => expect(payButton().disabled).toBe(false));

    fake.decline();
    await user.click(payButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');
    expect(onConfirmed).not.toHaveBeenCalled();
    expect(payButton().disabled).toBe(false);

    await user.click(payButton());
    await waitFor(() => expect(onConfirmed).toHaveBeenCalledWith('pi_1'));
    expect(fake.confirmCardPayment).toHaveBeenLastCalledWith('pi_1_secret_x', {
      payment_method: { card: fake.card, billing_details: billing },
    });
  });

  it('does not confirm while offline', async () => {
    const fake = createFakeStripe();
    renderForm({ stripe: fake.stripe, online: false });
    await waitFor(() => expect(fake.card.mount).toHaveBeenCalled());
    await act(async () => {});
    expect(payButton().disabled).toBe(true);
  });
});
