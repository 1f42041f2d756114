import { type ChangeEvent, type SubmitEvent, useState } from 'react';
import { useT } from '../../../lib/i18n.tsx';
import { notify } from '../../../lib/notify.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { CONTACT_LIMITS, type ContactMessage, sendContactMessage } from '../api/send-contact-message.ts';
import '../contact.css';

const empty: ContactMessage = { user_name: '', user_email: '', subject: '', message: '' };

/**
 * The landing page's contact form: plain React state (no form library, which would weigh on the landing page's
 * first load for four fields the browser validates itself).
 */
export function ContactForm() {
  const [values, setValues] = useState(empty);
  const [sending, setSending] = useState(false);
  // Painted before its code has run: the fields take no typing the code would not see, the button no submit.
  const ready = useHydrated();
  const t = useT();
  const field = (name: keyof ContactMessage) => ({
    name,
    value: values[name],
    readOnly: !ready,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSending(true);
    try {
      const delivery = await sendContactMessage(values);
      if (delivery === 'sent') notify.success(t('contact.sent'));
      else notify.message(t('contact.queued'));
      setValues(empty);
    } catch {
      notify.error(t('contact.failed'));
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="contact" aria-labelledby="contact-title">
      <p className="eyebrow eyebrow--light">{t('contact.eyebrow')}</p>
      <h2 id="contact-title">{t('contact.title')}</h2>
      <form className="contact__form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="contact-name">{t('field.name')}</label>
          <input
            id="contact-name"
            type="text"
            autoComplete="name"
            required
            maxLength={CONTACT_LIMITS.user_name}
            {...field('user_name')}
          />
        </div>
        <div className="field">
          <label htmlFor="contact-email">{t('field.email')}</label>
          <input
            id="contact-email"
            type="email"
            autoComplete="email"
            required
            maxLength={CONTACT_LIMITS.user_email}
            {...field('user_email')}
          />
        </div>
        <div className="field">
          <label htmlFor="contact-subject">{t('contact.subject')}</label>
          <input id="contact-subject" type="text" required maxLength={CONTACT_LIMITS.subject} {...field('subject')} />
        </div>
        <div className="field">
          <label htmlFor="contact-message">{t('contact.message')}</label>
          <textarea id="contact-message" rows={5} required maxLength={CONTACT_LIMITS.message} {...field('message')} />
        </div>
        <button type="submit" className="button button--primary" disabled={sending || !ready}>
          {t('contact.submit')}
        </button>
      </form>
    </section>
  );
}
