import useSWR, { useSWRConfig } from 'swr';
import type { LinkForms } from '../../../../../contract/links.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { type Answers, type FormDelivery, saveFormAnswers } from './booking-forms.ts';

/** GET /api/links/:token/forms: a forms link's visit and forms (the kiosk's too), without an account. */
export const linkFormsKey = (token: string) => `/links/${encodeURIComponent(token)}/forms`;

export function useLinkForms(token: string | null) {
  return useSWR<LinkForms>(token ? linkFormsKey(token) : null, apiFetcher<LinkForms>);
}

/** PUT /api/links/:token/forms/:formId (as saveFormAnswers), then the forms again. */
export function useSaveLinkFormAnswers(token: string) {
  const { mutate } = useSWRConfig();
  return async (form: { _id: string; title: string }, answers: Answers): Promise<FormDelivery> => {
    const saved = await saveFormAnswers(linkFormsKey(token), form, answers);
    if (saved.delivery === 'sent') void mutate(linkFormsKey(token));
    return saved;
  };
}
