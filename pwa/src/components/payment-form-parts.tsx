import { Link } from 'wouter';
import { useLanguage, useT } from '../lib/i18n.tsx';

/**
 * docs/product-payments.md#payment: the one submit button of both card forms, naming the amount it charges
 * ("Pay $125"), or "Save card" when the form saves a card for later (`amount` null: nothing is
 * charged); the caller decides when it may be pressed.
 */
export function PayButton({
  amount,
  disabled,
  busy = false,
}: {
  amount: number | null;
  disabled: boolean;
  busy?: boolean;
}) {
  const { t, format } = useLanguage();
  return (
    <button
      type="submit"
      className="button button--primary payment__pay"
      disabled={disabled}
      aria-busy={busy || undefined}
    >
      {amount === null ? t('card.save') : t('card.pay', { amount: format.price(amount) })}
    </button>
  );
}

/** docs/product-payments.md#payment: a card error or an API error, in red, with the provider's or the server's own words. */
export function PaymentError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="form-error payment__error">
      {message}
    </p>
  );
}

export function OfflineNote() {
  const t = useT();
  return (
    <p role="status" className="callout">
      {t('pay.offline')}
    </p>
  );
}

export function BackToAppointments() {
  const t = useT();
  return (
    <Link href="/dashboard" className="button payment__back">
      {t('pay.back')}
    </Link>
  );
}
