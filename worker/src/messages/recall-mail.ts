/** The recall messages: a patient's, and a family's due in one month (mail and SMS). */
import type { MessageSettingsRow } from '../clinic/data/message-settings.ts';
import type { Env } from '../platform/env.ts';
import { languageOf, type Words, wordsFor } from '../platform/words.ts';
import { compose, type MailContent, type MessageLinks } from './mail-compose.ts';

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
  /** Who the message is to: the patient, or their guardian; and that account's language. */
  accountName?: string;
  language?: string | null;
}

export function recallMail(
  env: Env,
  w: Words,
  data: RecallData,
  settings: MessageSettingsRow,
  links: MessageLinks,
): MailContent {
  const late = data.step > 0;
  const to = data.accountName ?? data.patientName;
  // To a guardian, about a dependant: whose visit it is.
  const own = to === data.patientName;
  const about = { treatment: data.treatment, patient: data.patientName, due: w.longDay(data.dueDate) };
  const t = (key: Parameters<Words['t']>[0], forKey: Parameters<Words['t']>[0]) => w.t(own ? key : forKey, about);
  return compose(w, settings, to, {
    subject: late ? t('recall.lateSubject', 'recall.lateSubjectFor') : t('recall.subject', 'recall.subjectFor'),
    intro: [
      late ? t('recall.late', 'recall.lateFor') : t('recall.due', 'recall.dueFor'),
      w.t(links.times?.length ? 'recall.picked' : 'recall.choose'),
    ],
    details: [[w.t('detail.due'), about.due]],
    ...(links.times?.length ? { links: links.times } : {}),
    ...(links.book
      ? { link: { label: w.t(links.times?.length ? 'recall.otherTimes' : 'recall.chooseTime'), href: links.book } }
      : {}),
    after: [w.t('recall.callOrStop', { phone: settings.clinic_phone, link: `${env.APP_URL}/dashboard` })],
  });
}

/**
 * One message for a family's recalls due in one month: who is due for what, a link that opens the
 * booking page on the first due day with the family visit's dialog, and each person's own
 * one-tap times (`books`, in the order of `members`), in the account holder's language.
 */
export function familyRecallMail(
  env: Env,
  members: RecallData[],
  settings: MessageSettingsRow,
  books: (string | undefined)[],
  today: string,
): MailContent {
  const [first] = members;
  const w = wordsFor(env, languageOf(first?.language));
  const due = familyVisitDate(members, today);
  const month = w.month(members.map((m) => m.dueDate).sort()[0] ?? due);
  return compose(w, settings, first?.accountName ?? first?.patientName ?? '', {
    subject: w.t('recall.familySubject', { month }),
    intro: [w.t('recall.familyIntro', { month })],
    details: members.map((m) => [
      m.patientName,
      w.t('recall.familyDue', { treatment: m.treatment, due: w.longDay(m.dueDate) }),
    ]),
    links: [
      { label: w.t('recall.familyBook'), href: familyVisitLink(env, due) },
      ...members.flatMap((m, i) => {
        const href = books[i];
        return href
          ? [{ label: w.t('recall.familyOne', { patient: m.patientName, treatment: m.treatment }), href }]
          : [];
      }),
    ],
    after: [w.t('recall.callOrStop', { phone: settings.clinic_phone, link: `${env.APP_URL}/dashboard` })],
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
  wordsFor(env, languageOf(members[0]?.language)).t('sms.familyRecall', {
    clinic: settings.clinic_name,
    count: members.length,
    link: familyVisitLink(env, familyVisitDate(members, today)),
  });
