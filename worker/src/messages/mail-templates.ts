import { slotLabel } from '../../../contract/slot-label.ts';
import { calendarFile } from '../booking/calendar.ts';
import type { MessageSettingsRow } from '../clinic/data/message-settings.ts';
import { clinicInstant } from '../platform/clinic-time.ts';
import type { Env } from '../platform/env.ts';
import type { MailData, MailKind } from './data/outbox.ts';
import { feeMail } from './fee-mail.ts';
import { clinicWhen, compose, type MailContent, type MessageLinks, money, shortWhen } from './mail-compose.ts';
import { type RecallData, recallMail } from './recall-mail.ts';

/** What a booking is paid online: "$125.00", or a deposit's "$30.00 (a deposit; the rest at the desk)". */
const payOnline = (data: MailData) =>
  data.depositCents ? `${money(data.depositCents)} (a deposit; the rest at the desk)` : money(data.priceCents);

/** The visit's forms still to fill, with their link (no sign-in needed): none when all are in. */
function formsParagraph(data: MailData, links: MessageLinks): string[] {
  if (!data.formsToFill || !links.forms) return [];
  const which = data.formsToFill === 1 ? 'the form' : `the ${data.formsToFill} forms`;
  return [
    `Before you come, please fill in ${which} your visit needs (a few minutes, on your phone, no sign-in needed): ${links.forms}`,
  ];
}

/** The appointment's lines: treatment, when (start and end, clinic time), doctor, where. */
function appointmentDetails(env: Env, data: MailData, settings: MessageSettingsRow): [string, string][] {
  const start = clinicInstant(env, data.date, data.startMinute);
  return [
    ...(data.guardianName ? ([['For', data.patientName]] as [string, string][]) : []),
    ['Treatment', data.treatment],
    ['When', clinicWhen(env, start)],
    ['Length', `${data.durationMinutes} minutes`],
    ...(data.doctor ? ([['Doctor', data.doctor]] as [string, string][]) : []),
    ['Where', `${settings.clinic_name}, ${settings.clinic_address}`],
  ];
}

/**
 * The appointment's calendar file: PUBLISH adds or updates the event (the same UID for the
 * appointment's whole life, the SEQUENCE its version), CANCEL takes it out of the calendar.
 */
function icsAttachment(
  env: Env,
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
      { now, method, organizer: method === 'CANCEL' ? env.MAIL_FROM : undefined },
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
  if (kind === 'recall') return recallMail(env, data as unknown as RecallData, settings, links);
  if (kind === 'record_invite') {
    // The clinic's words only: nothing the inviting account typed (a name) reaches an outside address.
    return compose(settings, null, {
      subject: `Your own account at ${settings.clinic_name}`,
      intro: [
        `A family member has kept your dental record at ${settings.clinic_name} in their account. You can now have your own.`,
        'Sign up with this email address and verify it: your visits, upcoming and past, become yours, and your messages come to you.',
        'If you do not know why you got this mail, you can ignore it.',
      ],
      details: [],
      link: { label: 'Sign up', href: `${env.APP_URL}/signup` },
    });
  }
  const start = clinicInstant(env, data.date, data.startMinute);
  const details = appointmentDetails(env, data, settings);
  const myAppointments = { label: 'My Appointments', href: `${env.APP_URL}/dashboard` };
  // A dependant's visit is mailed to the account holder, naming the person it is for.
  const name = data.guardianName ?? data.patientName;
  if (kind === 'fee') return feeMail(env, data, settings, name, details);
  switch (kind) {
    case 'confirmation':
      return compose(settings, name, {
        subject: `Booked: ${data.treatment} on ${shortWhen(env, start)}`,
        intro: [`Your appointment at ${settings.clinic_name} is booked.`],
        details,
        after: [
          ...(data.paid !== 1 && data.priceCents > 0 && data.holdUntil
            ? [
                `Please pay ${payOnline(data)} by ${clinicWhen(env, new Date(data.holdUntil))}, or the time will be released for other patients.`,
              ]
            : []),
          ...formsParagraph(data, links),
          'The calendar file attached adds the appointment to your calendar.',
        ],
        link: myAppointments,
        attachments: [icsAttachment(env, data, settings, now)],
      });
    case 'reschedule': {
      const before = data.from ? clinicWhen(env, clinicInstant(env, data.from.date, data.from.startMinute)) : null;
      return compose(settings, name, {
        subject: `Moved: ${data.treatment} is now on ${shortWhen(env, start)}`,
        intro: [
          before
            ? `Your ${data.treatment} appointment has moved from ${before} to ${clinicWhen(env, start)}.`
            : `Your ${data.treatment} appointment has moved to ${clinicWhen(env, start)}.`,
        ],
        details,
        after: ['The calendar file attached has the new time.'],
        link: myAppointments,
        attachments: [icsAttachment(env, data, settings, now)],
      });
    }
    case 'cancellation': {
      const who =
        data.by === 'unpaid'
          ? `Your ${data.treatment} appointment was released because it was not paid${data.holdUntil ? ` by ${clinicWhen(env, new Date(data.holdUntil))}` : ' in time'}.`
          : data.by === 'admin'
            ? `The clinic cancelled your ${data.treatment} appointment.`
            : `You cancelled your ${data.treatment} appointment.`;
      return compose(settings, name, {
        // A release is not a cancellation by anyone: its subject says what happened (issue 45).
        subject:
          data.by === 'unpaid'
            ? `Released: not paid, ${data.treatment} on ${shortWhen(env, start)}`
            : `Cancelled: ${data.treatment} on ${shortWhen(env, start)}`,
        intro: [
          who,
          ...(data.reason ? [`Reason: ${data.reason}`] : []),
          // A paid visit is refunded whoever cancelled it; the refund notice follows when the money is back.
          ...(data.paid === 1 && data.by !== 'unpaid'
            ? [`Your payment of ${money(data.depositCents ?? data.priceCents)} will be refunded.`]
            : []),
        ],
        details,
        after: [
          `To book another time, visit ${env.APP_URL}/appointment or call us at ${settings.clinic_phone}.`,
          'The calendar file attached takes the appointment out of your calendar.',
        ],
        attachments: [icsAttachment(env, data, settings, now, 'CANCEL')],
      });
    }
    case 'receipt':
      return compose(settings, name, {
        subject: `Receipt: ${money(data.amountCents ?? data.priceCents, data.currency)} for ${data.treatment}`,
        intro: [`Thank you: we received your payment for your ${data.treatment} appointment.`],
        details: [
          ['Amount', money(data.amountCents ?? data.priceCents, data.currency)],
          ['Paid', data.paidAt ? clinicWhen(env, new Date(data.paidAt)) : clinicWhen(env, now)],
          ['Transaction', data.transactionId ?? ''],
          ...details,
        ],
        link: myAppointments,
      });
    case 'refund': {
      const amount = money(data.amountCents ?? data.priceCents, data.currency);
      const card = data.card ? ` (${data.card})` : '';
      return compose(settings, name, {
        subject: `Refunded: ${amount} for ${data.treatment}`,
        intro: data.atDesk
          ? [`We handed back ${amount} for your ${data.treatment} appointment at the clinic's desk.`]
          : [
              `We refunded ${amount} for your ${data.treatment} appointment to the card you paid with${card}.`,
              'Banks usually show a refund within 5 to 10 business days.',
            ],
        details: [['Refunded', amount], ['Transaction', data.transactionId ?? ''], ...details],
        link: myAppointments,
      });
    }
    case 'pay_soon': {
      const until = clinicWhen(env, new Date(data.holdUntil ?? now.toISOString()));
      return compose(settings, name, {
        subject: `Pay soon: ${data.treatment} on ${shortWhen(env, start)} is held until ${shortWhen(env, new Date(data.holdUntil ?? now.toISOString()))}`,
        intro: [
          `Your ${data.treatment} appointment on ${clinicWhen(env, start)} is not paid yet.`,
          `Please pay ${payOnline(data)} by ${until}, or the time will be released for other patients.`,
        ],
        details,
        links: [
          {
            label: `Pay ${money(data.depositCents ?? data.priceCents)}`,
            href: `${env.APP_URL}/dashboard/payment/${data.bookingId}`,
          },
        ],
        after: [`To keep the time without paying online, call us at ${settings.clinic_phone}.`],
      });
    }
    case 'reminder': {
      const soon = data.reminder === '2h' ? 'in 2 hours' : 'tomorrow';
      const answers = [
        ...(links.confirm ? [{ label: "I'm coming", href: links.confirm }] : []),
        ...(links.callback ? [{ label: 'Please call me', href: links.callback }] : []),
        ...(links.cancel ? [{ label: 'Cancel', href: links.cancel }] : []),
      ];
      return compose(settings, name, {
        subject: `Reminder: ${data.treatment} ${soon}, ${shortWhen(env, start)}`,
        intro: [
          `This is a reminder of your ${data.treatment} appointment ${soon}, ${clinicWhen(env, start)}.`,
          ...(answers.length > 0 ? ['Please let us know if you are coming: one tap below, no sign-in needed.'] : []),
          ...formsParagraph(data, links),
        ],
        details,
        links: answers,
        after: [
          `If you cannot come, please cancel or call us at ${settings.clinic_phone}, so another patient can have the time.`,
          'You can turn these reminders off in My Appointments.',
        ],
        link: myAppointments,
      });
    }
    case 'stranded':
      // The clinic can call only a patient whose number it has; anyone else is told what to do instead.
      return data.phone
        ? compose(settings, name, {
            subject: `Your ${data.treatment} appointment on ${shortWhen(env, start)}: the clinic will call you`,
            intro: [
              `The clinic's schedule changed, and your ${data.treatment} appointment may need a new time. Nothing is cancelled: the clinic will call you to arrange it.`,
            ],
            details,
            after: [`If you would rather call us first, our number is ${settings.clinic_phone}.`],
            link: myAppointments,
          })
        : compose(settings, name, {
            subject: `Your ${data.treatment} appointment on ${shortWhen(env, start)}: please call the clinic`,
            intro: [
              `The clinic's schedule changed, and your ${data.treatment} appointment may need a new time. Nothing is cancelled, and we keep the time for you until it is arranged.`,
              `We have no phone number for you, so please call us at ${settings.clinic_phone}, or choose a new time yourself: Reschedule, in My Appointments.`,
            ],
            details,
            link: myAppointments,
          });
    case 'offer_withdrawn':
      return compose(settings, name, {
        subject: `The time offered to you is no longer available: ${data.treatment} on ${shortWhen(env, start)}`,
        intro: [
          `The clinic's schedule changed, so the time we were holding for you, ${clinicWhen(env, start)}, can no longer be booked. You stay on the waitlist.`,
        ],
        details,
        link: myAppointments,
      });
    case 'offer':
      return compose(settings, name, {
        subject: `A time is free for you: ${data.treatment} on ${shortWhen(env, start)}`,
        intro: [
          `A time you are waiting for is free: ${data.treatment}, ${clinicWhen(env, start)}.`,
          `We are holding it for you until ${clinicWhen(env, new Date(data.expiresAt ?? now))}. After that it goes to the next patient in line.`,
        ],
        details: [
          ...details,
          ...(data.priceCents > 0 ? ([['Price', money(data.priceCents)]] as [string, string][]) : []),
        ],
        link: { label: 'Accept or decline the offer', href: `${env.APP_URL}/offers/${data.offerId ?? ''}` },
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
  if (kind === 'recall') {
    return `${clinic}: it is time for your next visit. Choose a time: ${links.book ?? `${env.APP_URL}/appointment`} Reply STOP to opt out.`;
  }
  // Money by text: the amount and a link, never the treatment (a lock screen).
  if (kind === 'pay_soon') {
    const until = shortWhen(env, new Date(data.holdUntil ?? Date.now()));
    return `${clinic}: please pay ${money(data.depositCents ?? data.priceCents)} by ${until} to keep your visit: ${env.APP_URL}/dashboard/payment/${data.bookingId} Reply STOP to opt out.`;
  }
  if (kind === 'refund') {
    const amount = money(data.amountCents ?? data.priceCents, data.currency);
    return data.atDesk
      ? `${clinic}: we handed back ${amount} at the desk. Reply STOP to opt out.`
      : `${clinic}: we refunded ${amount} to ${data.card ?? 'your card'}; banks show it within 5 to 10 business days. Reply STOP to opt out.`;
  }
  if (kind === 'fee') {
    const amount = money(data.amountCents ?? 0, data.currency);
    if (data.feeStatus === 'unpaid') {
      return `${clinic}: please pay the ${amount} fee of your visit: ${env.APP_URL}/dashboard/fees/${data.feeId ?? ''} Reply STOP to opt out.`;
    }
    const what = { charged: 'charged to your card on file', paid: 'paid, thank you', waived: 'waived' }[
      data.feeStatus ?? 'charged'
    ];
    return `${clinic}: the ${amount} fee of your visit was ${what}. Reply STOP to opt out.`;
  }
  if (kind === 'reminder') {
    const when = shortWhen(env, clinicInstant(env, data.date, data.startMinute));
    return `${clinic}: reminder of your visit ${when}. Reply C to confirm, R to be called, X to cancel${links.confirm ? ` (or ${links.confirm})` : ''}. STOP to opt out.`;
  }
  return `${clinic}: there is news about your visit. See ${env.APP_URL}/dashboard`;
}
