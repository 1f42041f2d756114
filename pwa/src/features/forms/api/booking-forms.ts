import useSWR from 'swr';
import type { BookingForm, FormAnswered } from '../../../../../contract/forms.ts';
import { api } from '../../../lib/api.ts';
import { client } from '../../../lib/client.ts';
import { clinicDb } from '../../../lib/db.ts';
import { isNetworkFailure } from '../../../lib/http.ts';
import { sharedOutbox } from '../../../lib/outbox.ts';
import { pathOf } from '../../../lib/route-paths.ts';

export type { BookingForm };
export type Answers = Record<string, boolean | string>;

export const bookingFormsKey = (bookingId: string) => pathOf('GET /bookings/:id/forms', { params: { id: bookingId } });

/** The visit's forms as this device last loaded them ('offline': the network failed and this is the copy). */
export type LoadedForms = { forms: BookingForm[]; offline: boolean };

/**
 * GET /api/bookings/:id/forms. Each answer is kept on this device for `email` (IndexedDB), so the
 * forms open offline too; when the network fails, the kept copy is answered instead.
 */
async function loadForms(bookingId: string, email: string | null): Promise<LoadedForms> {
  try {
    const forms = await client('GET /bookings/:id/forms', { params: { id: bookingId } });
    if (email) {
      void clinicDb()
        .savedForms.put({ bookingId, email: email.toLowerCase(), forms, savedAt: Date.now() })
        .catch((cause: unknown) => console.error('The forms could not be kept for offline use', cause));
    }
    return { forms, offline: false };
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    const saved = await clinicDb().savedForms.get(bookingId);
    if (!saved || saved.email !== email?.toLowerCase()) throw error;
    return { forms: saved.forms as BookingForm[], offline: true };
  }
}

export function useBookingForms(bookingId: string | null, email: string | null) {
  return useSWR<LoadedForms>(bookingId ? bookingFormsKey(bookingId) : null, () => loadForms(bookingId ?? '', email));
}

/** Forgets the signed-out user's kept forms. */
export async function deleteSavedForms(email: string): Promise<void> {
  await clinicDb().savedForms.where('email').equals(email.toLowerCase()).delete();
}

/** 'sent': the clinic has the answers. 'queued': they wait on this device and go when the network is back. */
export type FormDelivery = { delivery: 'sent'; alerts: string[] } | { delivery: 'queued' };

/** Whose forms: a visit's (signed in), or a forms link's (the kiosk's too). */
export type FormsOf = { bookingId: string } | { token: string };

/**
 * PUT /api/bookings/:id/forms/:formId, or /api/links/:token/forms/:formId for a link's visit, with an
 * Idempotency-Key. When the network fails, the answers wait in the outbox under the same key
 * and are sent once when it is back (docs/product-booking.md#forms).
 */
export async function saveFormAnswers(
  of: FormsOf,
  form: { _id: string; title: string },
  answers: Answers,
  key: string = crypto.randomUUID(),
): Promise<FormDelivery> {
  const path =
    'token' in of
      ? pathOf('PUT /links/:token/forms/:formId', { params: { token: of.token, formId: form._id } })
      : pathOf('PUT /bookings/:id/forms/:formId', { params: { id: of.bookingId, formId: form._id } });
  const body = JSON.stringify({ answers });
  try {
    const saved = await api<FormAnswered>(path, { method: 'PUT', headers: { 'Idempotency-Key': key }, body });
    return { delivery: 'sent', alerts: saved.alerts };
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    // Loaded with this page (not on demand): offline, a chunk fetched now might not come.
    await sharedOutbox().enqueue({
      key,
      path,
      method: 'PUT',
      body,
      label: form.title,
      sentText: `Your “${form.title}” form was sent to the clinic.`,
      failedAttempts: 1,
    });
    return { delivery: 'queued' };
  }
}
