import { slotLabel } from '../../../contract/slot-label.ts';
import { calendarFile } from '../booking/calendar.ts';
import type { MessageSettingsRow } from '../clinic/data/message-settings.ts';
import { clinicInstant } from '../platform/clinic-time.ts';
import type { Env } from '../platform/env.ts';
import { languageOf, type Words, wordsFor } from '../platform/words.ts';
import type { MailData, MailKind } from './data/outbox.ts';
import { feeMail } from './fee-mail.ts';
import { compose, type MailContent, type MessageLinks } from './mail-compose.ts';
import { type RecallData, recallMail } from './recall-mail.ts';

/**
 * The words of a message about `data`: the language of the account it goes to (the account
 * holder's, for a family member's visit), or English where the data has none (an older row).
 */
export const wordsOfMessage = (env: Env, data: Pick<MailData, 'language'>): Words =>
  wordsFor(env, languageOf(data.language));

/** What a booking is paid online: "$125.00", or a deposit's "$30.00 (a deposit; the rest at the desk)". */
const payOnline = (w: Words, data: MailData) =>
  data.depositCents ? w.t('pay.deposit', { deposit: w.money(data.depositCents) }) : w.money(data.priceCents);

/** The visit's forms still to fill, with their link (no sign-in needed): none when all are in. */
function formsParagraph(w: Words, data: MailData, links: MessageLinks): string[] {
  if (!data.formsToFill || !links.forms) return [];
  return [w.t('forms', { count: data.formsToFill, link: links.forms })];
}

/** The card a payment came from in words, from the stored "Visa ending 4242". */
function cardIn(w: Words, card: string): string {
  const parts = /^(.+) ending (\d{4})$/.exec(card);
  return parts ? w.t('card.ending', { brand: parts[1] ?? '', last4: parts[2] ?? '' }) : card;
}

/** The appointment's lines: treatment, when (start and end, clinic time), doctor, where. */
function appointmentDetails(env: Env, w: Words, data: MailData, settings: MessageSettingsRow): [string, string][] {
  const start = clinicInstant(env, data.date, data.startMinute);
  return [
    ...(data.guardianName ? ([[w.t('detail.for'), data.patientName]] as [string, string][]) : []),
    [w.t('detail.treatment'), data.treatment],
    [w.t('detail.when'), w.when(start)],
    [w.t('detail.length'), w.t('detail.lengthValue', { minutes: data.durationMinutes })],
    ...(data.doctor ? ([[w.t('detail.doctor'), data.doctor]] as [string, string][]) : []),
    [w.t('detail.where'), `${settings.clinic_name}, ${settings.clinic_address}`],
  ];
}

/**
 * The appointment's calendar file: PUBLISH adds or updates the event (the same UID for the
 * appointment's whole life, the SEQUENCE its version), CANCEL takes it out of the calendar.
 */
function icsAttachment(
  env: Env,
  w: Words,
  data: MailData,
  settings: MessageSettingsRow,
  now: Date,
  method: 'PUBLISH' | 'CANCEL' = 'PUBLISH',
): EmailAttachment {
  return {
    disposition: 'attachment',
    filename: `appointment-${data.date}.ics`,
    type: 'text/calendar',
    content: calendarFile(
      env,
      {
        ...data,
        uid: data.calendarUid ?? data.bookingId,
        sequence: data.version ?? 1,
        slot: slotLabel(data.startMinute, data.durationMinutes),
        doctor: data.doctor,
      },
      { name: settings.clinic_name, address: settings.clinic_address },
      { now, method, organizer: method === 'CANCEL' ? env.MAIL_FROM : undefined, words: w },
    ),
  };
}

/** The mail of an outbox row: its kind, the booking as it was when queued, the clinic's settings. */
export function renderMail(
  env: Env,
  kind: MailKind,
  data: MailData,
  settings: MessageSettingsRow,
  now: Date,
  links: MessageLinks = {},
): MailContent {
  if (kind === 'recall')
    return recallMail(env, wordsOfMessage(env, data), data as unknown as RecallData, settings, links);
  if (kind === 'record_invite') {
    // The clinic's words only: nothing the inviting account typed (a name) reaches an outside address.
    // In the family member's language: the account's, which their record took when it was added.
    const w = wordsOfMessage(env, data);
    const clinic = settings.clinic_name;
    return compose(w, settings, null, {
      subject: w.t('invite.subject', { clinic }),
      intro: [w.t('invite.intro', { clinic }), w.t('invite.signUp'), w.t('invite.ignore')],
      details: [],
      link: { label: w.t('invite.link'), href: `${env.APP_URL}/signup` },
    });
  }
  const start = clinicInstant(env, data.date, data.startMinute);
  const w = wordsOfMessage(env, data);
  const details = appointmentDetails(env, w, data, settings);
  const myAppointments = { label: w.t('link.myAppointments'), href: `${env.APP_URL}/dashboard` };
  // A dependant's visit is mailed to the account holder, naming the person it is for.
  const name = data.guardianName ?? data.patientName;
  if (kind === 'fee') return feeMail(env, w, data, settings, name, details, data.card ? cardIn(w, data.card) : null);
  const { treatment } = data;
  const mail = (parts: Parameters<typeof compose>[3]) => compose(w, settings, name, parts);
  switch (kind) {
    case 'confirmation':
      return mail({
        subject: w.t('confirmation.subject', { treatment, when: w.shortWhen(start) }),
        intro: [w.t('confirmation.intro', { clinic: settings.clinic_name })],
        details,
        after: [
          ...(data.paid !== 1 && data.priceCents > 0 && data.holdUntil
            ? [w.t('pay.by', { amount: payOnline(w, data), until: w.when(new Date(data.holdUntil)) })]
            : []),
          ...formsParagraph(w, data, links),
          w.t('confirmation.calendar'),
        ],
        link: myAppointments,
        attachments: [icsAttachment(env, w, data, settings, now)],
      });
    case 'reschedule': {
      const after = w.when(start);
      return mail({
        subject: w.t('reschedule.subject', { treatment, when: w.shortWhen(start) }),
        intro: [
          data.from
            ? w.t('reschedule.fromTo', {
                treatment,
                before: w.when(clinicInstant(env, data.from.date, data.from.startMinute)),
                after,
              })
            : w.t('reschedule.to', { treatment, after }),
        ],
        details,
        after: [w.t('reschedule.calendar')],
        link: myAppointments,
        attachments: [icsAttachment(env, w, data, settings, now)],
      });
    }
    case 'cancellation': {
      const who =
        data.by === 'unpaid'
          ? data.holdUntil
            ? w.t('cancellation.releasedBy', { treatment, until: w.when(new Date(data.holdUntil)) })
            : w.t('cancellation.released', { treatment })
          : data.by === 'admin'
            ? w.t('cancellation.byClinic', { treatment })
            : w.t('cancellation.byPatient', { treatment });
      return mail({
        // A release is not a cancellation by anyone: its subject says what happened (issue 45).
        subject: w.t(data.by === 'unpaid' ? 'cancellation.subjectReleased' : 'cancellation.subject', {
          treatment,
          when: w.shortWhen(start),
        }),
        intro: [
          who,
          ...(data.reason ? [w.t('cancellation.reason', { reason: data.reason })] : []),
          // A paid visit is refunded whoever cancelled it; the refund notice follows when the money is back.
          ...(data.paid === 1 && data.by !== 'unpaid'
            ? [w.t('cancellation.refundFollows', { amount: w.money(data.depositCents ?? data.priceCents) })]
            : []),
        ],
        details,
        after: [
          w.t('cancellation.bookAnother', { url: `${env.APP_URL}/appointment`, phone: settings.clinic_phone }),
          w.t('cancellation.calendar'),
        ],
        attachments: [icsAttachment(env, w, data, settings, now, 'CANCEL')],
      });
    }
    case 'receipt': {
      const amount = w.money(data.amountCents ?? data.priceCents, data.currency);
      return mail({
        subject: w.t('receipt.subject', { amount, treatment }),
        intro: [w.t('receipt.intro', { treatment })],
        details: [
          [w.t('detail.amount'), amount],
          [w.t('detail.paid'), w.when(data.paidAt ? new Date(data.paidAt) : now)],
          [w.t('detail.transaction'), data.transactionId ?? ''],
          ...details,
        ],
        link: myAppointments,
      });
    }
    case 'refund': {
      const amount = w.money(data.amountCents ?? data.priceCents, data.currency);
      return mail({
        subject: w.t('refund.subject', { amount, treatment }),
        intro: data.atDesk
          ? [w.t('refund.atDesk', { amount, treatment })]
          : [
              data.card
                ? w.t('refund.toNamedCard', { amount, treatment, card: cardIn(w, data.card) })
                : w.t('refund.toCard', { amount, treatment }),
              w.t('refund.banks'),
            ],
        details: [[w.t('detail.refunded'), amount], [w.t('detail.transaction'), data.transactionId ?? ''], ...details],
        link: myAppointments,
      });
    }
    case 'pay_soon': {
      const until = new Date(data.holdUntil ?? now.toISOString());
      return mail({
        subject: w.t('paySoon.subject', { treatment, when: w.shortWhen(start), until: w.shortWhen(until) }),
        intro: [
          w.t('paySoon.notPaid', { treatment, when: w.when(start) }),
          w.t('pay.by', { amount: payOnline(w, data), until: w.when(until) }),
        ],
        details,
        links: [
          {
            label: w.t('pay.link', { amount: w.money(data.depositCents ?? data.priceCents) }),
            href: `${env.APP_URL}/dashboard/payment/${data.bookingId}`,
          },
        ],
        after: [w.t('paySoon.callInstead', { phone: settings.clinic_phone })],
      });
    }
    case 'reminder': {
      const soon = data.reminder === '2h' ? '2h' : '24h';
      const answers = [
        ...(links.confirm ? [{ label: w.t('reminder.coming'), href: links.confirm }] : []),
        ...(links.callback ? [{ label: w.t('reminder.callMe'), href: links.callback }] : []),
        ...(links.cancel ? [{ label: w.t('reminder.cancel'), href: links.cancel }] : []),
      ];
      return mail({
        subject: w.t('reminder.subject', { treatment, soon, when: w.shortWhen(start) }),
        intro: [
          w.t('reminder.intro', { treatment, soon, when: w.when(start) }),
          ...(answers.length > 0 ? [w.t('reminder.askAnswer')] : []),
          ...formsParagraph(w, data, links),
        ],
        details,
        links: answers,
        after: [w.t('reminder.cannotCome', { phone: settings.clinic_phone }), w.t('reminder.turnOff')],
        link: myAppointments,
      });
    }
    case 'stranded': {
      // The clinic can call only a patient whose number it has; anyone else is told what to do instead.
      const about = { treatment, when: w.shortWhen(start) };
      return data.phone
        ? mail({
            subject: w.t('stranded.subjectCall', about),
            intro: [w.t('stranded.introCall', { treatment })],
            details,
            after: [w.t('stranded.callFirst', { phone: settings.clinic_phone })],
            link: myAppointments,
          })
        : mail({
            subject: w.t('stranded.subjectNoPhone', about),
            intro: [
              w.t('stranded.introNoPhone', { treatment }),
              w.t('stranded.noPhone', { phone: settings.clinic_phone }),
            ],
            details,
            link: myAppointments,
          });
    }
    case 'offer_withdrawn':
      return mail({
        subject: w.t('offerWithdrawn.subject', { treatment, when: w.shortWhen(start) }),
        intro: [w.t('offerWithdrawn.intro', { when: w.when(start) })],
        details,
        link: myAppointments,
      });
    case 'offer':
      return mail({
        subject: w.t('offer.subject', { treatment, when: w.shortWhen(start) }),
        intro: [
          w.t('offer.intro', { treatment, when: w.when(start) }),
          w.t('offer.holding', { until: w.when(new Date(data.expiresAt ?? now)) }),
        ],
        details: [
          ...details,
          ...(data.priceCents > 0 ? ([[w.t('detail.price'), w.money(data.priceCents)]] as [string, string][]) : []),
        ],
        link: { label: w.t('offer.link'), href: `${env.APP_URL}/offers/${data.offerId ?? ''}` },
      });
  }
}

/**
 * An SMS: short, with the clinic's name, and never the treatment (anyone may read a phone's lock
 * screen). Replies C, R and X answer a reminder; STOP stops every text.
 */
export function renderSms(
  env: Env,
  kind: MailKind,
  data: MailData,
  settings: MessageSettingsRow,
  links: MessageLinks,
): string {
  const clinic = settings.clinic_name;
  const w = wordsOfMessage(env, data);
  if (kind === 'recall') return w.t('sms.recall', { clinic, link: links.book ?? `${env.APP_URL}/appointment` });
  // Money by text: the amount and a link, never the treatment (a lock screen).
  if (kind === 'pay_soon') {
    return w.t('sms.paySoon', {
      clinic,
      amount: w.money(data.depositCents ?? data.priceCents),
      until: w.shortWhen(new Date(data.holdUntil ?? Date.now())),
      link: `${env.APP_URL}/dashboard/payment/${data.bookingId}`,
    });
  }
  if (kind === 'refund') {
    const amount = w.money(data.amountCents ?? data.priceCents, data.currency);
    return data.atDesk
      ? w.t('sms.refundAtDesk', { clinic, amount })
      : w.t('sms.refundToCard', { clinic, amount, card: data.card ? cardIn(w, data.card) : w.t('sms.yourCard') });
  }
  if (kind === 'fee') {
    const amount = w.money(data.amountCents ?? 0, data.currency);
    return data.feeStatus === 'unpaid'
      ? w.t('sms.feeUnpaid', { clinic, amount, link: `${env.APP_URL}/dashboard/fees/${data.feeId ?? ''}` })
      : w.t('sms.fee', { clinic, amount, status: data.feeStatus ?? 'charged' });
  }
  if (kind === 'reminder') {
    const when = w.shortWhen(clinicInstant(env, data.date, data.startMinute));
    return links.confirm
      ? w.t('sms.reminderLink', { clinic, when, link: links.confirm })
      : w.t('sms.reminder', { clinic, when });
  }
  return w.t('sms.news', { clinic, link: `${env.APP_URL}/dashboard` });
}
