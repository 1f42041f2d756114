import { ALERT_EXTENSION, SIGNATURE_EXTENSION } from './form-kinds.ts';
import type { FormQuestion, FormSummary, Questionnaire } from './forms.ts';

/**
 * A form's questions as a FHIR R4 Questionnaire and back: shared by the Worker, which stores it,
 * the seed, which writes the clinic's first forms, and the PWA (no valibot here: the PWA imports
 * the contract's schemas for their types only).
 */

type Question = Required<Pick<FormQuestion, 'linkId' | 'text' | 'type'>> &
  Pick<FormQuestion, 'options' | 'alert' | 'shownWhen'> & { required: boolean };
export type Item = Questionnaire['item'][number];
type ShownWhen = NonNullable<FormQuestion['shownWhen']>;

/**
 * The question the clinic answers itself from the person's record: their age on the visit's day
 * (read-only, never shown). A question asked only from some age depends on it.
 */
export const AGE_ITEM = 'patient-age';

/** A question's condition as FHIR enableWhen: unknown age counts as old enough. */
function enableWhenOf(shown: ShownWhen): Pick<Item, 'enableWhen' | 'enableBehavior'> {
  if ('minAge' in shown) {
    return {
      enableWhen: [
        { question: AGE_ITEM, operator: 'exists', answerBoolean: false },
        { question: AGE_ITEM, operator: '>=', answerInteger: shown.minAge },
      ],
      enableBehavior: 'any',
    };
  }
  const answer =
    typeof shown.answer === 'boolean' ? { answerBoolean: shown.answer } : { answerCoding: { code: shown.answer } };
  return { enableWhen: [{ question: shown.question, operator: '=', ...answer }] };
}

/** The condition of an item as the admin wrote it (the reverse of enableWhenOf). */
function shownWhenOf(item: Item): ShownWhen | undefined {
  const age = item.enableWhen?.find((rule) => rule.question === AGE_ITEM && rule.operator === '>=');
  if (age?.answerInteger !== undefined) return { minAge: age.answerInteger };
  const [rule] = item.enableWhen ?? [];
  const answer = rule?.answerBoolean ?? rule?.answerCoding?.code;
  return rule && answer !== undefined ? { question: rule.question, answer } : undefined;
}

/**
 * A form's questions as a FHIR R4 Questionnaire: a signature is a `string` item with our extension;
 * a question asked from some age depends on the read-only age item, put first when any does.
 */
export function toQuestionnaire(formId: string, version: number, title: string, questions: Question[]): Questionnaire {
  const byAge = questions.some((q) => q.shownWhen && 'minAge' in q.shownWhen);
  const ageItem: Item = {
    linkId: AGE_ITEM,
    text: 'Age on the day of the visit',
    type: 'integer',
    required: false,
    readOnly: true,
  };
  return {
    resourceType: 'Questionnaire',
    id: formId,
    version: String(version),
    title,
    status: 'active',
    item: [
      ...(byAge ? [ageItem] : []),
      ...questions.map((q): Item => {
        const extension = [
          ...(q.alert ? [{ url: ALERT_EXTENSION, valueString: q.alert }] : []),
          ...(q.type === 'signature' ? [{ url: SIGNATURE_EXTENSION, valueBoolean: true }] : []),
        ];
        return {
          linkId: q.linkId,
          text: q.text,
          type: q.type === 'signature' ? 'string' : q.type,
          required: q.required,
          ...(q.options ? { answerOption: q.options.map((o) => ({ valueCoding: { ...o } })) } : {}),
          ...(extension.length > 0 ? { extension } : {}),
          ...(q.shownWhen ? enableWhenOf(q.shownWhen) : {}),
        };
      }),
    ],
  };
}

/** The questions a person answers: the items that are not read-only. */
export const questionItems = (questionnaire: Questionnaire) => questionnaire.item.filter((item) => !item.readOnly);

/**
 * The questions asked of this person with these answers, in order (FHIR enableWhen, evaluated as R4
 * says: an unanswered or not-asked question matches only `exists: false`). `age`: the person's age,
 * the read-only item's answer (null: not known).
 */
export function askedItems(
  questionnaire: Questionnaire,
  answers: Record<string, boolean | string>,
  context: { age: number | null },
): Item[] {
  const known = new Map<string, boolean | string | number>();
  if (context.age !== null) known.set(AGE_ITEM, context.age);
  const asked: Item[] = [];
  for (const item of questionnaire.item) {
    if (item.readOnly) continue;
    const rules = item.enableWhen ?? [];
    const holds = (rule: (typeof rules)[number]) => {
      const value = known.get(rule.question);
      if (rule.operator === 'exists') return (value !== undefined) === rule.answerBoolean;
      if (value === undefined) return false;
      if (rule.operator === '>=') return typeof value === 'number' && value >= (rule.answerInteger ?? 0);
      return value === (rule.answerBoolean ?? rule.answerCoding?.code);
    };
    const enabled = rules.length === 0 || (item.enableBehavior === 'any' ? rules.some(holds) : rules.every(holds));
    if (!enabled) continue;
    asked.push(item);
    const answer = answers[item.linkId];
    if (answer !== undefined && answer !== '') known.set(item.linkId, answer);
  }
  return asked;
}

export const extensionOf = (item: Item, url: string) => item.extension?.find((e) => e.url === url);
export const isSignature = (item: Item) => extensionOf(item, SIGNATURE_EXTENSION)?.valueBoolean === true;

/** The questions of a Questionnaire, as the admin wrote them. */
export function questionsOf(questionnaire: Questionnaire): FormSummary['items'] {
  return questionItems(questionnaire).map((item) => {
    const alert = extensionOf(item, ALERT_EXTENSION)?.valueString;
    const shownWhen = shownWhenOf(item);
    return {
      linkId: item.linkId,
      text: item.text,
      type: isSignature(item) ? 'signature' : (item.type as Exclude<Item['type'], 'integer'>),
      required: item.required,
      ...(item.answerOption ? { options: item.answerOption.map((o) => ({ ...o.valueCoding })) } : {}),
      ...(alert ? { alert } : {}),
      ...(shownWhen ? { shownWhen } : {}),
    };
  });
}
