import * as v from 'valibot';
import { text } from './fields.ts';
import { QUESTION_TYPES } from './form-kinds.ts';

/**
 * Forms before the visit (docs/product-booking.md#forms): a medical history, a consent, an intake form.
 * A form's questions are kept as a FHIR R4 Questionnaire (https://hl7.org/fhir/R4/questionnaire.html)
 * and its answers as a QuestionnaireResponse, so another system can read them.
 */

const linkId = v.pipe(
  v.string('linkId must be text'),
  v.regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'linkId must be lowercase letters, digits and dashes (at most 40)'),
);

const ShownWhen = v.union(
  [
    v.strictObject({
      minAge: v.pipe(v.number(), v.integer(), v.minValue(1, 'minAge must be 1 to 120'), v.maxValue(120)),
    }),
    v.strictObject({ question: linkId, answer: v.union([v.boolean(), linkId]) }),
  ],
  'shownWhen must be {minAge} or {question, answer}',
);

/** A question as the admin writes it. */
export const FormQuestion = v.object({
  linkId,
  text: text('text', 300),
  type: v.picklist(QUESTION_TYPES, `type must be one of ${QUESTION_TYPES.join(', ')}`),
  required: v.optional(v.boolean('required must be true or false'), false),
  /** A choice's options. */
  options: v.optional(
    v.pipe(
      v.array(v.object({ code: linkId, display: text('options.display', 100) }), 'options must be a list'),
      v.maxLength(20, 'a choice has at most 20 options'),
    ),
  ),
  /** A yes/no question only: the alert a "yes" puts on the day schedule ("Penicillin allergy"). */
  alert: v.optional(text('alert', 100)),
  /**
   * When it is asked: of a person of `minAge` or more (or whose age the clinic does not know), or
   * when an earlier question has `answer` (FHIR enableWhen). Otherwise it is not asked, nor required.
   */
  shownWhen: v.optional(ShownWhen),
});
export type FormQuestion = v.InferInput<typeof FormQuestion>;

/**
 * POST /api/forms, PUT /api/forms/:id (admin): a form template; a PUT writes a new version.
 * `renewMonths`: answers last that long (a medical history: 12), or null: given for one visit (a
 * consent). `treatments`: 'all', or the treatments (ids) that need it.
 */
export const FormTemplate = v.pipe(
  v.object({
    title: text('title', 100),
    renewMonths: v.nullable(
      v.pipe(
        v.number('renewMonths must be a number or null'),
        v.integer('renewMonths must be a whole number'),
        v.minValue(1, 'renewMonths must be 1 to 120'),
        v.maxValue(120, 'renewMonths must be 1 to 120'),
      ),
    ),
    treatments: v.union(
      [
        v.literal('all'),
        v.pipe(v.array(text('treatments', 100), 'treatments must be "all" or a list'), v.maxLength(100)),
      ],
      'treatments must be "all" or a list of treatment ids',
    ),
    items: v.pipe(
      v.array(FormQuestion, 'items must be a list of questions'),
      v.minLength(1, 'a form has at least one question'),
      v.maxLength(50, 'a form has at most 50 questions'),
    ),
  }),
  v.check(
    (form) => new Set(form.items.map((q) => q.linkId)).size === form.items.length,
    'each question needs its own linkId',
  ),
  v.check(
    (form) => form.items.every((q) => (q.type === 'choice') === (q.options !== undefined && q.options.length > 0)),
    'a choice question needs options, and only a choice question has them',
  ),
  v.check(
    (form) => form.items.every((q) => q.alert === undefined || q.type === 'boolean'),
    'only a yes/no question raises an alert',
  ),
  v.check(
    (form) =>
      form.items.every(
        (q, i) =>
          !q.shownWhen ||
          !('question' in q.shownWhen) ||
          form.items.slice(0, i).some((earlier) => earlier.linkId === (q.shownWhen as { question: string }).question),
      ),
    'a question can depend only on an earlier question',
  ),
);
export type FormTemplate = v.InferInput<typeof FormTemplate>;

/** A FHIR R4 Questionnaire item's enableWhen (the subset we write). */
const EnableWhen = v.strictObject({
  question: v.string(),
  operator: v.picklist(['exists', '=', '>=']),
  answerBoolean: v.optional(v.boolean()),
  answerInteger: v.optional(v.number()),
  answerCoding: v.optional(v.strictObject({ code: v.string() })),
});

/** A FHIR R4 Questionnaire item (the subset we write). */
const QuestionnaireItem = v.strictObject({
  linkId: v.string(),
  text: v.string(),
  type: v.picklist(['boolean', 'string', 'text', 'date', 'choice', 'integer']),
  required: v.boolean(),
  /** The person's age, which the clinic answers from its record: never shown, never typed. */
  readOnly: v.optional(v.boolean()),
  enableWhen: v.optional(v.array(EnableWhen)),
  enableBehavior: v.optional(v.picklist(['all', 'any'])),
  answerOption: v.optional(
    v.array(v.strictObject({ valueCoding: v.strictObject({ code: v.string(), display: v.string() }) })),
  ),
  extension: v.optional(
    v.array(
      v.strictObject({ url: v.string(), valueString: v.optional(v.string()), valueBoolean: v.optional(v.boolean()) }),
    ),
  ),
});

/** A form's version as a FHIR R4 Questionnaire. */
export const Questionnaire = v.strictObject({
  resourceType: v.literal('Questionnaire'),
  id: v.string(),
  version: v.string(),
  title: v.string(),
  status: v.literal('active'),
  item: v.array(QuestionnaireItem),
});
export type Questionnaire = v.InferOutput<typeof Questionnaire>;

/** GET /api/forms (admin): each form with its current version. */
export const FormSummary = v.strictObject({
  _id: v.string(),
  title: v.string(),
  version: v.number(),
  renewMonths: v.nullable(v.number()),
  treatments: v.union([v.literal('all'), v.array(v.string())]),
  items: v.array(
    v.strictObject({
      linkId: v.string(),
      text: v.string(),
      type: v.picklist(QUESTION_TYPES),
      required: v.boolean(),
      options: v.optional(v.array(v.strictObject({ code: v.string(), display: v.string() }))),
      alert: v.optional(v.string()),
      shownWhen: v.optional(ShownWhen),
    }),
  ),
  questionnaire: Questionnaire,
});
export type FormSummary = v.InferOutput<typeof FormSummary>;

export const FormSaved = v.strictObject({ acknowledged: v.literal(true), _id: v.string(), version: v.number() });
export type FormSaved = v.InferOutput<typeof FormSaved>;

/** An answer: yes/no, or text (a line, lines, an ISO date, a choice's code, a typed name). */
export const Answer = v.union([v.boolean(), v.string()]);

/**
 * GET /api/bookings/:id/forms (the booking's owner, or staff): each form the visit needs, where it
 * stands, the questionnaire, and the answers that count (or, missing or expired, the last ones, to
 * pre-fill: a returning patient confirms or changes them).
 */
export const BookingForm = v.strictObject({
  _id: v.string(),
  title: v.string(),
  status: v.picklist(['missing', 'filled', 'expired']),
  questionnaire: Questionnaire,
  answers: v.nullable(v.record(v.string(), Answer)),
  /** When the answers shown were given (ISO, UTC); null when there are none. */
  answeredAt: v.nullable(v.string()),
  /** The alerts those answers raise. */
  alerts: v.array(v.string()),
  /** The person's age on the visit's day, from the clinic's record (null: not known): which questions are asked. */
  patientAge: v.nullable(v.number()),
});
export type BookingForm = v.InferOutput<typeof BookingForm>;

/** PUT /api/bookings/:id/forms/:formId: each question's `linkId` to its answer. */
export const FormAnswers = v.object({
  answers: v.pipe(
    v.record(v.string(), Answer, 'answers must map each question to true/false or text'),
    v.check((answers) => Object.keys(answers).length <= 50, 'too many answers'),
  ),
});
export type FormAnswers = v.InferInput<typeof FormAnswers>;

export const FormAnswered = v.strictObject({
  acknowledged: v.literal(true),
  insertedId: v.string(),
  status: v.literal('filled'),
  alerts: v.array(v.string()),
});
export type FormAnswered = v.InferOutput<typeof FormAnswered>;
