import { valibotResolver } from '@hookform/resolvers/valibot';
import type { FieldValues, Resolver } from 'react-hook-form';
import * as v from 'valibot';

/**
 * A react-hook-form resolver that checks a form with the contract's own schema of the request body,
 * the one the Worker's router parses it with: `toBody`, when the form's text is not the body already,
 * turns it into the body (text into numbers, "" into nothing); each problem shows under the field
 * of the same name, in the server's words; the submit handler receives the body as the schema
 * outputs it. For staff screens only: the patient pages keep valibot out of what they load
 * (pwa/scripts/contract-on-staff-screens.test.ts).
 */
export function contractResolver<Values extends FieldValues, Schema extends v.GenericSchema>(
  schema: Schema,
  toBody: (values: Values) => unknown = (values) => values,
): Resolver<Values, unknown, v.InferOutput<Schema>> {
  return valibotResolver(
    v.pipe(
      v.custom<Values>(() => true),
      v.transform(toBody),
      schema,
    ),
  ) as Resolver<Values, unknown, v.InferOutput<Schema>>;
}

/** A number field as the body takes it: nothing when empty (the schema says what is missing), NaN when not a number. */
export const numberOf = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.trim()));
