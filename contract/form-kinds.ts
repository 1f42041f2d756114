/**
 * The kinds of form question and our FHIR extensions (docs/product-booking.md#forms): plain values, for
 * the contract's schemas, the Worker and the PWA alike (which imports no valibot).
 */

/** The kinds of question: yes/no, a line, several lines (a list of medicines), a date, one of a list, a typed signature. */
export const QUESTION_TYPES = ['boolean', 'string', 'text', 'date', 'choice', 'signature'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** Our extensions on Questionnaire items: the alert a yes raises, and the signature question. */
export const ALERT_EXTENSION = 'https://smile-dental.example/fhir/StructureDefinition/alert';
export const SIGNATURE_EXTENSION = 'https://smile-dental.example/fhir/StructureDefinition/signature';
