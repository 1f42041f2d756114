import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { PaymentRecord, RecordedPayment } from '../../../../../contract/payments.ts';
import { api } from '../../../lib/api.ts';
import { isBookingKey, isMyBookingsKey } from '../../../lib/cache-keys.ts';

/** POST /api/payments: the Worker checks the payment with the provider before it records it (idempotent). */
export function recordPayment(record: PaymentRecord): Promise<RecordedPayment> {
  return api('/payments', { method: 'POST', body: JSON.stringify(record) });
}

/**
 * Records the payment, then, whatever the answer, reloads the booking and the patient's bookings:
 * the server may now say it is paid, so My Appointments shows Paid when it is next shown.
 */
export function useRecordPayment() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (record: PaymentRecord): Promise<RecordedPayment> => {
      try {
        return await recordPayment(record);
      } finally {
        // A family visit's payment pays several bookings: each loaded booking (and receipt) is reloaded.
        void mutate((key) => isBookingKey(key) || isMyBookingsKey(key));
      }
    },
    [mutate],
  );
}
