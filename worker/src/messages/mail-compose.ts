/** What every message is made of: amounts in the API's English, and a mail's text and HTML from its parts. */
import type { MessageSettingsRow } from '../clinic/data/message-settings.ts';
import { formatMoney, type Words } from '../platform/words.ts';

/** A mail as the send_email binding takes it, before the sender and recipient are added. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
  attachments?: EmailAttachment[];
}

/** An amount as the API's messages say it, in English: "$150.00" (a message's own words: `Words.money`). */
export const money = (cents: number, currency = 'usd') => formatMoney('en-US', cents, currency);

/** Text made safe inside HTML or XML markup. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** A mail's parts: paragraphs (plain text), the appointment's details, a link. */
export interface Parts {
  subject: string;
  intro: string[];
  details: [string, string][];
  after?: string[];
  link?: { label: string; href: string };
  /** More links, one a line (a reminder's answers). */
  links?: { label: string; href: string }[];
  attachments?: EmailAttachment[];
}

/** The signed links a message carries (worker/src/messages/link-tokens.ts). */
export interface MessageLinks {
  confirm?: string;
  callback?: string;
  cancel?: string;
  book?: string;
  /** The visit's forms, without an account. */
  forms?: string;
  /** A recall's proposed times: each books its time in one tap on the link's page. */
  times?: { label: string; href: string }[];
}

/** A mail's text and HTML in the language of `words`; `name` is whom it greets ("Hello" with none). */
export function compose(
  words: Pick<Words, 't' | 'language'>,
  settings: MessageSettingsRow,
  name: string | null,
  parts: Parts,
): MailContent {
  const clinic = [settings.clinic_name, settings.clinic_address, settings.clinic_phone].filter(Boolean);
  const greeting = name === null ? words.t('greeting.anonymous') : words.t('greeting.named', { name });
  const text = [
    greeting,
    '',
    ...parts.intro.flatMap((p) => [p, '']),
    ...parts.details.map(([label, value]) => `${label}: ${value}`),
    '',
    ...(parts.after ?? []).flatMap((p) => [p, '']),
    ...(parts.links ?? []).flatMap((l) => [`${l.label}: ${l.href}`, '']),
    ...(parts.link ? [`${parts.link.label}: ${parts.link.href}`, ''] : []),
    '--',
    ...clinic,
    '',
  ].join('\n');
  const html = `<!doctype html>
<html lang="${words.language}"><head><meta charset="utf-8"><title>${escapeHtml(parts.subject)}</title></head>
<body style="font-family: Arial, sans-serif; color: #1f2937; line-height: 1.5">
<p>${escapeHtml(greeting)}</p>
${parts.intro.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<table role="presentation" style="border-collapse: collapse">
${parts.details.map(([label, value]) => `<tr><th style="text-align: left; padding: 2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('\n')}
</table>
${(parts.after ?? []).map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${(parts.links ?? []).map((l) => `<p><a href="${escapeHtml(l.href)}" style="${BUTTON}">${escapeHtml(l.label)}</a></p>`).join('\n')}
${parts.link ? `<p><a href="${escapeHtml(parts.link.href)}">${escapeHtml(parts.link.label)}</a></p>` : ''}
<hr>
<p style="color: #6b7280">${clinic.map(escapeHtml).join('<br>')}</p>
</body></html>
`;
  return { subject: parts.subject, text, html, ...(parts.attachments ? { attachments: parts.attachments } : {}) };
}

/** One-tap links look like what they are: buttons (inline styles: mail clients drop style sheets). */
const BUTTON =
  'display: inline-block; padding: 10px 16px; background: #0e7490; color: #ffffff; border-radius: 6px; text-decoration: none; font-weight: bold';
