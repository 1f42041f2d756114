import { ALERT_EXTENSION, SIGNATURE_EXTENSION } from './form-kinds.ts';
import type { FormQuestion, FormSummary, Questionnaire } from './forms.ts';

/**
 * A form's questions as a FHIR R4 Questionnaire and back: shared by the Worker, which stores it,
 * the seed, which writes the clinic's first forms, and the PWA (no valibot here: the PWA imports
 * the contract's schemas for their types only).
 */

type Question = Required<Pick<FormQuestion, 'linkId' | 'text' | 'type'>> &
  Pick<FormQuestion, 'options' | 'alert'> & { required: boolean };
export type Item = Questionnaire['item'][number];

/** A form's questions as a FHIR R4 Questionnaire: a signature is a `string` item with our extension. */
export function toQuestionnaire(formId: string, version: number, title: string, questions: Question[]): Questionnaire {
  return {
    resourceType: 'Questionnaire',
    id: formId,
    version: String(version),
    title,
    status: 'active',
    item: questions.map((q): Item => {
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
      };
    }),
  };
}

export const extensionOf = (item: Item, url: string) => item.extension?.find((e) => e.url === url);
export const isSignature = (item: Item) => extensionOf(item, SIGNATURE_EXTENSION)?.valueBoolean === true;

/** The questions of a Questionnaire, as the admin wrote them. */
export function questionsOf(questionnaire: Questionnaire): FormSummary['items'] {
  return questionnaire.item.map((item) => {
    const alert = extensionOf(item, ALERT_EXTENSION)?.valueString;
    return {
      linkId: item.linkId,
      text: item.text,
      type: isSignature(item) ? 'signature' : item.type,
      required: item.required,
      ...(item.answerOption ? { options: item.answerOption.map((o) => ({ ...o.valueCoding })) } : {}),
      ...(alert ? { alert } : {}),
    };
  });
}
