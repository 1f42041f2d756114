import type { Stripe } from '@stripe/stripe-js';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createFakeStripe } from '../testing/fake-stripe.ts';
import { StripeCheckoutForm, type StripeCheckoutFormProps } from './stripe-checkout-form.tsx';

const billing = { name: 'Pat Patient', email: 'patient@clinic.test' };
const returnUrl = 'https://clinic.test/dashboard/payment/b-1';
const payButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Pay $120' });

function renderForm(props: Partial<StripeCheckoutFormProps> & Pick<StripeCheckoutFormProps, 'stripe'>) {
  const onConfirmed = vi.fn();
  const view = render(
    <StripeCheckoutForm
      clientSecret="pi_1_secret_x"
      billing={billing}
      returnUrl={returnUrl}
      amount={120}
      online
      onConfirmed={onConfirmed}
      {...props}
    />,
  );
  return { onConfirmed, view };
}

describe('Stripe Payment Element form', () => {
  it('creates Stripe’s Payment Element (not the legacy card element) with the client secret', async () => {
    const fake = createFakeStripe();
    renderForm({ stripe: fake.stripe });
    await waitFor(() => expect(fake.element.mount).toHaveBeenCalled());
    expect(fake.stripe.elements).toHaveBeenCalledWith(expect.objectContaining({ clientSecret: 'pi_1_secret_x' }));
    expect(fake.elements.create).toHaveBeenCalledWith(
      'payment',
      expect.objectContaining({ fields: { billingDetails: { name: 'never', email: 'never' } } }),
    );
    expect(screen.getByRole('group', { name: 'Payment details' })).toBeTruthy();
  });

  it('keeps Pay disabled while Stripe.js is still loading, and until the Payment Element is ready', async () => {
    const fake = createFakeStripe({ readyOnMount: false });
    let resolve: (stripe: Stripe) => void = () => {};
    renderForm({ stripe: new Promise<Stripe>((r) => (resolve = r)) });

    expect(payButton().disabled).toBe(true);
    expect(fake.element.mount).not.toHaveBeenCalled();

    await act(async () => resolve(fake.stripe));
    await waitFor(() => expect(fake.element.mount).toHaveBeenCalled());
    expect(payButton().disabled).toBe(true);
    act(() => fake.ready());
    expect(payButton().disabled).toBe(false);
  });

  it('reports the PaymentIntent id once Stripe says succeeded; a decline shows Stripe’s message in red', async () => {
    const fake = createFakeStripe();
    const { onConfirmed } = renderForm({ stripe: fake.stripe });
    const user = userEvent.setup();
    await waitFor(() => expect(payButton().disabled).toBe(false));

    fake.decline();
    await user.click(payButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Your card was declined.');
    expect(alert.className).toContain('form-error');
    expect(onConfirmed).not.toHaveBeenCalled();
    expect(payButton().disabled).toBe(false);

    await user.click(payButton());
    await waitFor(() => expect(onConfirmed).toHaveBeenCalledWith('pi_1'));
    expect(fake.confirmPayment).toHaveBeenLastCalledWith({
      elements: fake.elements,
      confirmParams: { return_url: returnUrl, payment_method_data: { billing_details: billing } },
      redirect: 'if_required',
    });
  });

  it('keeps Pay disabled while a payment is in flight', async () => {
    const fake = createFakeStripe();
    const { onConfirmed } = renderForm({ stripe: fake.stripe });
    const user = userEvent.setup();
    await waitFor(() => expect(payButton().disabled).toBe(false));
    const release = fake.hold();

    await user.click(payButton());
    expect(payButton().disabled).toBe(true);
    expect(payButton().getAttribute('aria-busy')).toBe('true');
    await act(async () => release());
    expect(onConfirmed).toHaveBeenCalledWith('pi_1');
  });

  it('does not confirm while offline', async () => {
    const fake = createFakeStripe();
    renderForm({ stripe: fake.stripe, online: false });
    await waitFor(() => expect(fake.element.mount).toHaveBeenCalled());
    await act(async () => {});
    expect(payButton().disabled).toBe(true);
  });
});
