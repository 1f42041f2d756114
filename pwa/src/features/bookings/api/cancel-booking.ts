import { api } from '../../../lib/api.ts';

export type CancelResult = { acknowledged: boolean; modifiedCount: number; message: string };

/** DELETE /api/bookings/:id: cancels an unpaid booking that has not started and frees its slot (409 otherwise). */
export function cancelBooking(id: string): Promise<CancelResult> {
  return api<CancelResult>(`/bookings/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
