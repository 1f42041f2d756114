/** The recall messages: a patient's, and a family's due in one month (mail and SMS). */
import type { MessageSettingsRow } from '../clinic/data/message-settings.ts';
import type { Env } from '../platform/env.ts';
import { wordsFor } from '../platform/words.ts';
import { compose, type MailContent, type MessageLinks } from './mail-compose.ts';

/** Recall messages are still in English whatever the patient's language (issue 48: their catalog entries are to come). */
const englishOf = (env: Env) => wordsFor(env, 'en');

/** What a recall message's row holds. */
export interface RecallData {
  recallId: string;
  treatment: string;
  dueDate: string;
  patientName: string;
  step: number;
  /** The account's recalls due in one month ("<account id>:<yyyy-mm>"), sent as one message. */
  family?: string;
  /** The earliest due date among them: the family's steps count from it. */
  familyDue?: string;
  /** Who the message is to: the patient, or their guardian. */
  accountName?: string;
}

const longDate = (isoDate: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );

export function recallMail(env: Env, data: RecallData, settings: MessageSettingsRow, links: MessageLinks): MailContent {
  const late = data.step > 0;
  const to = data.accountName ?? data.patientName;
  // To a guardian, about a dependant: whose visit it is.
  const whose = to === data.patientName ? 'your' : `${data.patientName}’s`;
  const Whose = whose === 'your' ? 'Your' : whose;
  return compose(englishOf(env), settings, to, {
    subject: late ? `We miss you: time to book ${whose} ${data.treatment}` : `Time for ${whose} ${data.treatment}`,
    intro: [
      late
        ? `${Whose} ${data.treatment} was due on ${longDate(data.dueDate)}. Regular visits keep small problems small.`
        : `${Whose} next ${data.treatment} is due on ${longDate(data.dueDate)}.`,
      links.times?.length
        ? 'We have picked free times near that date; one tap books the one that suits you.'
        : 'Choose a time that suits you; one tap books it.',
    ],
    details: [['Due', longDate(data.dueDate)]],
    ...(links.times?.length ? { links: links.times } : {}),
    ...(links.book ? { link: { label: links.times?.length ? 'Other times' : 'Choose a time', href: links.book } } : {}),
    after: [
      `Or call us at ${settings.clinic_phone}. To get no more of these messages, turn reminders off in My Appointments: ${env.APP_URL}/dashboard`,
    ],
  });
}

/**
 * One message for a family's recalls due in one month: who is due for what, a link that opens the
 * booking page on the first due day with the family visit's dialog, and each person's own
 * one-tap times (`books`, in the order of `members`).
 */
export function familyRecallMail(
  env: Env,
  members: RecallData[],
  settings: MessageSettingsRow,
  books: (string | undefined)[],
  today: string,
): MailContent {
  const [first] = members;
  const due = familyVisitDate(members, today);
  const month = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(
    new Date(`${members.map((m) => m.dueDate).sort()[0] ?? due}T00:00:00Z`),
  );
  return compose(englishOf(env), settings, first?.accountName ?? first?.patientName ?? '', {
    subject: `Time for your family’s visits in ${month}`,
    intro: [
      `These visits are due in ${month}. Book them together as one family visit: one trip to the clinic, one payment.`,
    ],
    details: members.map((m) => [m.patientName, `${m.treatment}, due ${longDate(m.dueDate)}`]),
    links: [
      { label: 'Book a family visit', href: familyVisitLink(env, due) },
      ...members.flatMap((m, i) => {
        const href = books[i];
        return href ? [{ label: `Or choose a time for ${m.patientName}’s ${m.treatment}`, href }] : [];
      }),
    ],
    after: [
      `Or call us at ${settings.clinic_phone}. To get no more of these messages, turn reminders off in My Appointments: ${env.APP_URL}/dashboard`,
    ],
  });
}

/** The day a family's recall message offers: the earliest due date, or today once it has passed. */
function familyVisitDate(members: RecallData[], today: string): string {
  const due = members.map((m) => m.dueDate).sort()[0] ?? today;
  return due < today ? today : due;
}

/** The booking page on `date`, the family visit's dialog open. */
const familyVisitLink = (env: Env, date: string) => `${env.APP_URL}/appointment?date=${date}&family`;

/** A family's recall by SMS: short, no names or treatments (a lock screen), the family visit's link. */
export const familyRecallSms = (env: Env, settings: MessageSettingsRow, members: RecallData[], today: string) =>
  `${settings.clinic_name}: ${members.length} of your family are due for a visit. Book them together: ${familyVisitLink(env, familyVisitDate(members, today))} Reply STOP to opt out.`;
