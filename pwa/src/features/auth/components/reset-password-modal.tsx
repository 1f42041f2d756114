import { type SubmitEvent, useId, useRef, useState } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { notify } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.tsx';
import { authErrorText, isUnknownAccount } from '../auth-error-text.ts';

/**
 * docs/product-visitors.md#forgot-password: the email form, then the confirmation, whether or not the address
 * has an account; no validation.
 */
export function ResetPasswordModal({ defaultEmail = '', onClose }: { defaultEmail?: string; onClose(): void }) {
  const { resetPassword } = useSession();
  const [email, setEmail] = useState(defaultEmail);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const titleId = useId();
  const emailId = useId();
  const okRef = useRef<HTMLButtonElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const t = useT();

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setSending(true);
    try {
      await resetPassword(email);
      setSent(true);
    } catch (cause) {
      // Whether the address has an account is nobody's business here: the answer is the same.
      if (isUnknownAccount(cause)) setSent(true);
      else notify.error(authErrorText(cause, 'reset', t));
    } finally {
      setSending(false);
    }
  }

  if (sent) {
    return (
      <Modal key="sent" labelledBy={titleId} onClose={onClose} initialFocus={okRef}>
        <p id={titleId} className="modal__title">
          {t('reset.sent')}
        </p>
        <div className="modal__actions">
          <button ref={okRef} type="button" className="button button--primary" onClick={onClose}>
            {t('common.ok')}
          </button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal key="form" labelledBy={titleId} describedBy={`${titleId}-help`} onClose={onClose} initialFocus={emailRef}>
      <button type="button" className="modal__close" aria-label={t('common.close')} onClick={onClose}>
        ×
      </button>
      <h2 id={titleId} className="modal__title">
        {t('reset.title')}
      </h2>
      <p id={`${titleId}-help`} className="field__hint">
        {t('reset.help')}
      </p>
      <form className="modal__form" onSubmit={handleSubmit} noValidate>
        <div className="field">
          <label htmlFor={emailId}>{t('field.email')}</label>
          <input
            ref={emailRef}
            id={emailId}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <button type="submit" className="button button--primary" disabled={sending}>
          {t('reset.submit')}
        </button>
      </form>
    </Modal>
  );
}
