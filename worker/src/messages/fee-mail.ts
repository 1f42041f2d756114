/** The mail of a no-show or late-cancel fee (issue 45): charged, not charged (with its pay link), paid, waived. */
import type { MessageSettingsRow } from '../clinic/data/message-settings.ts';
import type { Env } from '../platform/env.ts';
import type { Words } from '../platform/words.ts';
import type { MailData } from './data/outbox.ts';
import { compose, type MailContent } from './mail-compose.ts';

export function feeMail(
  env: Env,
  w: Words,
  data: MailData,
  settings: MessageSettingsRow,
  name: string,
  details: [string, string][],
  card: string | null,
): MailContent {
  const fee = w.t('fee.name', { kind: data.feeKind ?? 'no_show' });
  const amount = w.money(data.amountCents ?? 0, data.currency);
  const onFile = card ?? w.t('fee.cardOnFile');
  const myAppointments = { label: w.t('link.myAppointments'), href: `${env.APP_URL}/dashboard` };
  const about = { fee, amount, treatment: data.treatment };
  const transaction: [string, string] = [w.t('detail.transaction'), data.transactionId ?? ''];
  const mail = (parts: Parameters<typeof compose>[3]) => compose(w, settings, name, parts);
  switch (data.feeStatus) {
    case 'charged':
      return mail({
        subject: w.t('fee.chargedSubject', about),
        intro: [
          w.t('fee.chargedIntro', { ...about, card: onFile }),
          w.t('fee.mistake', { phone: settings.clinic_phone }),
        ],
        details: [[w.t('detail.fee'), amount], transaction, ...details],
        link: myAppointments,
      });
    case 'unpaid':
      return mail({
        subject: w.t('fee.unpaidSubject', about),
        intro: [
          data.failure
            ? w.t('fee.unpaidIntroWhy', {
                ...about,
                why: `${data.failure.charAt(0).toLowerCase()}${data.failure.slice(1)}`.replace(/\.$/, ''),
              })
            : w.t('fee.unpaidIntro', about),
          w.t('fee.payLater'),
        ],
        details: [[w.t('detail.fee'), amount], ...details],
        links: [{ label: w.t('pay.link', { amount }), href: `${env.APP_URL}/dashboard/fees/${data.feeId ?? ''}` }],
      });
    case 'paid':
      return mail({
        subject: w.t('fee.paidSubject', about),
        intro: [w.t('fee.paidIntro', about)],
        details: [[w.t('detail.paid'), amount], transaction, ...details],
        link: myAppointments,
      });
    default:
      return mail({
        subject: w.t('fee.waivedSubject', about),
        intro: data.refunded
          ? [w.t('fee.waivedRefunded', { ...about, card: onFile }), w.t('refund.banks')]
          : [w.t('fee.waived', about)],
        details: [[w.t('detail.waived'), amount], ...details],
        link: myAppointments,
      });
  }
}
