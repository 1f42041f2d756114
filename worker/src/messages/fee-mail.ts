/** The mail of a no-show or late-cancel fee (issue 45): charged, not charged (with its pay link), paid, waived. */
import { FEE_NAMES } from '../../../contract/cards.ts';
import type { MessageSettingsRow } from '../clinic/data/message-settings.ts';
import type { Env } from '../platform/env.ts';
import { wordsFor } from '../platform/words.ts';
import type { MailData } from './data/outbox.ts';
import { compose, type MailContent, money } from './mail-compose.ts';

export function feeMail(
  env: Env,
  data: MailData,
  settings: MessageSettingsRow,
  name: string,
  details: [string, string][],
): MailContent {
  // Still in English whatever the patient's language (issue 48: its catalog entries are to come).
  const english = wordsFor(env, 'en');
  const fee = FEE_NAMES[data.feeKind ?? 'no_show'].toLowerCase();
  const amount = money(data.amountCents ?? 0, data.currency);
  const card = data.card ?? 'your card on file';
  const myAppointments = { label: 'My Appointments', href: `${env.APP_URL}/dashboard` };
  const visit = `your ${data.treatment} appointment`;
  switch (data.feeStatus) {
    case 'charged':
      return compose(english, settings, name, {
        subject: `Charged: ${amount} ${fee}`,
        intro: [
          `We charged the ${fee} of ${amount} for ${visit} to ${card}, as the policy you accepted when booking says.`,
          `If you think this is a mistake, please call us at ${settings.clinic_phone}.`,
        ],
        details: [['Fee', amount], ['Transaction', data.transactionId ?? ''], ...details],
        link: myAppointments,
      });
    case 'unpaid':
      return compose(english, settings, name, {
        subject: `Please pay the ${fee}: ${amount}`,
        intro: [
          `We could not charge the ${fee} of ${amount} for ${visit} to your card on file${data.failure ? `: ${data.failure.charAt(0).toLowerCase()}${data.failure.slice(1)}` : ''}.`,
          'Please pay it with the link below, or at the clinic on your next visit.',
        ],
        details: [['Fee', amount], ...details],
        links: [{ label: `Pay ${amount}`, href: `${env.APP_URL}/dashboard/fees/${data.feeId ?? ''}` }],
      });
    case 'paid':
      return compose(english, settings, name, {
        subject: `Receipt: ${amount} ${fee}`,
        intro: [`Thank you: we received ${amount} for the ${fee} of ${visit}.`],
        details: [['Paid', amount], ['Transaction', data.transactionId ?? ''], ...details],
        link: myAppointments,
      });
    default:
      return compose(english, settings, name, {
        subject: `Waived: ${amount} ${fee}`,
        intro: data.refunded
          ? [
              `We waived the ${fee} of ${visit} and refunded ${amount} to ${card}.`,
              'Banks usually show a refund within 5 to 10 business days.',
            ]
          : [`We waived the ${fee} of ${amount} for ${visit}: you owe nothing for it.`],
        details: [['Waived', amount], ...details],
        link: myAppointments,
      });
  }
}
