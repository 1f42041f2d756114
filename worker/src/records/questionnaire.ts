import { ALERT_EXTENSION } from '../../../contract/form-kinds.ts';
import type { Questionnaire } from '../../../contract/forms.ts';
import { askedItems, extensionOf, type Item, isSignature, questionItems } from '../../../contract/questionnaire.ts';
import { HttpError } from '../platform/http.ts';

type Value = boolean | string;

const CONTROL = /[\p{Cc}\u2028\u2029]/u;
const CONTROL_BUT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What `value` is for `item`, or why it cannot be (in words that name the question). */
function checked(item: Item, value: Value): { value: Value } | { problem: string } {
  const wrong = (what: string) => ({ problem: `“${item.text}” needs ${what}` });
  switch (item.type) {
    case 'boolean':
      return typeof value === 'boolean' ? { value } : wrong('yes or no (true or false)');
    case 'date': {
      if (typeof value !== 'string' || !ISO_DATE.test(value)) return wrong('a date (YYYY-MM-DD)');
      const day = new Date(`${value}T00:00:00Z`);
      return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value ? wrong('a real date') : { value };
    }
    case 'choice': {
      const codes = item.answerOption?.map((o) => o.valueCoding.code) ?? [];
      return typeof value === 'string' && codes.includes(value) ? { value } : wrong(`one of: ${codes.join(', ')}`);
    }
    default: {
      if (typeof value !== 'string') return wrong('text');
      const trimmed = value.trim();
      const multiline = item.type === 'text';
      if ((multiline ? CONTROL_BUT_LINE_BREAKS : CONTROL).test(trimmed)) {
        return wrong(multiline ? 'text without control characters' : 'one line of text');
      }
      if (trimmed.length > 2000) return wrong('at most 2000 characters');
      return { value: trimmed };
    }
  }
}

export interface ReadAnswers {
  /** Each answered question's value, in the questionnaire's order. */
  answers: Record<string, Value>;
  /** The alerts a "yes" raised. */
  alerts: string[];
  /** The typed signature, when the form has one. */
  signedName: string | null;
}

/**
 * The answers to `questionnaire` of a person of `age` (null: not known), checked: an unknown question,
 * a missing required answer or a wrong type is a 400 naming the question. Only the questions asked
 * of this person count (enableWhen): an answer to one not asked is dropped, and none is required.
 * An empty text counts as no answer.
 */
export function readAnswers(
  questionnaire: Questionnaire,
  given: Record<string, Value>,
  context: { age: number | null },
): ReadAnswers {
  const known = new Map(questionItems(questionnaire).map((item) => [item.linkId, item]));
  const unknown = Object.keys(given).find((linkId) => !known.has(linkId));
  if (unknown !== undefined) throw new HttpError(400, `This form has no question "${unknown.slice(0, 40)}"`);
  const answers: Record<string, Value> = {};
  const alerts: string[] = [];
  let signedName: string | null = null;
  for (const item of askedItems(questionnaire, given, context)) {
    const raw = given[item.linkId];
    const result = raw === undefined ? null : checked(item, raw);
    if (result && 'problem' in result) throw new HttpError(400, result.problem);
    const value = result?.value;
    if (value === undefined || value === '') {
      if (item.required) throw new HttpError(400, `Please answer “${item.text}”`);
      continue;
    }
    answers[item.linkId] = value;
    const alert = extensionOf(item, ALERT_EXTENSION)?.valueString;
    if (alert && value === true) alerts.push(alert);
    if (isSignature(item) && typeof value === 'string') signedName = value;
  }
  return { answers, alerts, signedName };
}

/** The answers as a FHIR R4 QuestionnaireResponse on the form's version, for the patient. */
export function toResponse(
  id: string,
  questionnaire: Questionnaire,
  patientId: string,
  answers: Record<string, Value>,
  authored: string,
): object {
  return {
    resourceType: 'QuestionnaireResponse',
    id,
    questionnaire: `Questionnaire/${questionnaire.id}|${questionnaire.version}`,
    status: 'completed',
    subject: { reference: `Patient/${patientId}` },
    authored,
    item: questionnaire.item.flatMap((item) => {
      const value = answers[item.linkId];
      if (value === undefined) return [];
      const option = item.answerOption?.find((o) => o.valueCoding.code === value);
      const answer =
        typeof value === 'boolean'
          ? { valueBoolean: value }
          : option
            ? { valueCoding: option.valueCoding }
            : item.type === 'date'
              ? { valueDate: value }
              : { valueString: value };
      return [{ linkId: item.linkId, text: item.text, answer: [answer] }];
    }),
  };
}

type StoredItem = {
  linkId: string;
  answer?: { valueBoolean?: boolean; valueString?: string; valueDate?: string; valueCoding?: { code: string } }[];
};

/** The answers in a stored QuestionnaireResponse, by linkId. */
export function answersOf(response: { item?: StoredItem[] }): Record<string, Value> {
  const answers: Record<string, Value> = {};
  for (const item of response.item ?? []) {
    const [answer] = item.answer ?? [];
    const value = answer?.valueBoolean ?? answer?.valueCoding?.code ?? answer?.valueDate ?? answer?.valueString;
    if (value !== undefined) answers[item.linkId] = value;
  }
  return answers;
}
