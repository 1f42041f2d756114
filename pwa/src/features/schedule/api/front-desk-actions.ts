import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { CancelForPatient, PhoneBooking, Reschedule } from '../../../../../contract/bookings.ts';
import type { DeskPayment } from '../../../../../contract/payments.ts';
import type { PatientMatch } from '../../../../../contract/users.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import { DESK_OUTBOX_KEY, patientSearchKey } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';
import { isNetworkFailure } from '../../../lib/http.ts';
import { sharedOutbox } from '../../../lib/outbox.ts';
import { pathOf } from '../../../lib/route-paths.ts';

export type { PatientMatch };

/** A visit as the front desk saw it: a write made offline carries its version (and a note, the note's). */
type SeenEntry = { _id: string; patientName: string; version: number; noteVersion?: number };

/** What the front desk is told: the server's answer, or that the write waits on this device. */
export type DeskWrite = { message: string; queued: boolean };

/**
 * Sends a write that may wait for the network (docs/product-admin.md#the-front-desk-offline): when the
 * network fails, it goes to the outbox under the same Idempotency-Key with the booking's version,
 * and is sent once when the connection is back; a visit that changed meanwhile refuses it, and the
 * outbox says why.
 */
async function sendOrQueue(
  method: 'POST' | 'PUT',
  path: string,
  body: object,
  texts: { label: string; sent: string; queued: string },
): Promise<DeskWrite> {
  const key = crypto.randomUUID();
  const json = JSON.stringify(body);
  try {
    const answer = await api<{ message: string }>(path, { method, headers: { 'Idempotency-Key': key }, body: json });
    return { message: answer.message, queued: false };
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    await sharedOutbox().enqueue({
      key,
      path,
      method,
      body: json,
      label: texts.label,
      sentText: texts.sent,
      refusedText: `Not saved: ${texts.label}.`,
      failedAttempts: 1,
    });
    return { message: texts.queued, queued: true };
  }
}

const ATTENDANCE_TEXT = { attended: 'attended', no_show: 'a no-show' } as const;

/** POST /api/bookings/:id/attendance at the version the desk saw; offline, it waits in the outbox. */
export function markAttendance(entry: SeenEntry, status: 'attended' | 'no_show', waiveFee = false): Promise<DeskWrite> {
  const label = `${entry.patientName} marked as ${ATTENDANCE_TEXT[status]}`;
  return sendOrQueue(
    'POST',
    pathOf('POST /bookings/:id/attendance', { params: { id: entry._id } }),
    { status, version: entry.version, ...(waiveFee ? { waiveFee } : {}) },
    {
      label,
      sent: `Sent: ${label}.`,
      queued: `Saved on this device: ${entry.patientName} will be marked as ${ATTENDANCE_TEXT[status]} when the connection is back.`,
    },
  );
}

/**
 * PUT /api/bookings/:id/note at the version the desk saw, and on the note it saw: a note saved
 * meanwhile is not overwritten (the answer shows it). Offline, it waits in the outbox.
 */
export function saveNote(entry: SeenEntry, note: string): Promise<DeskWrite> {
  const label = `the note on ${entry.patientName}’s visit`;
  return sendOrQueue(
    'PUT',
    pathOf('PUT /bookings/:id/note', { params: { id: entry._id } }),
    { note, version: entry.version, noteVersion: entry.noteVersion },
    {
      label,
      sent: `Sent: ${label}.`,
      queued: `Saved on this device: ${label} will be sent when the connection is back.`,
    },
  );
}

/**
 * The front desk's writes (each refreshes what it changes through the API client, invalidation.ts).
 * A mark or a note may wait on this device: the list of what waits is read again after each.
 */
export function useFrontDesk() {
  const { mutate } = useSWRConfig();
  const mayWait = useCallback(
    async <T>(write: Promise<T>): Promise<T> => {
      try {
        return await write;
      } finally {
        await mutate(DESK_OUTBOX_KEY);
      }
    },
    [mutate],
  );
  return {
    markAttendance: (entry: SeenEntry, status: 'attended' | 'no_show', waiveFee = false) =>
      mayWait(markAttendance(entry, status, waiveFee)),
    /** Waives a visit's fee; one already taken is refunded (docs/product-payments.md#fees). */
    waiveFee: (id: string) => client('POST /fees/:id/waive', { params: { id } }),
    saveNote: (entry: SeenEntry, note: string) => mayWait(saveNote(entry, note)),
    cancelForPatient: (booking: { _id: string }, cancel: CancelForPatient) =>
      client('POST /bookings/:id/cancel', { params: { id: booking._id }, body: cancel }),
    reschedule: (booking: { _id: string }, move: Reschedule) =>
      client('POST /bookings/:id/reschedule', { params: { id: booking._id }, body: move }),
    bookByPhone: (booking: PhoneBooking) => client('POST /phone-bookings', { body: booking }),
    /** Takes a booking off the review list as it is (the desk called the patient). */
    keep: (id: string) => client('POST /bookings/:id/keep', { params: { id } }),
    /** The patient paid at the desk, in cash or by card on the clinic's terminal. */
    deskPayment: (id: string, method: DeskPayment['method']) =>
      client('POST /bookings/:id/desk-payment', { params: { id }, body: { method } }),
  };
}

/** GET /api/users/search?q= (admin): no request under 2 characters. */
export function usePatientSearch(q: string) {
  const text = q.trim();
  return useSWR<PatientMatch[]>(text.length >= 2 ? patientSearchKey(text) : null, apiFetcher<PatientMatch[]>, {
    keepPreviousData: true,
  });
}
