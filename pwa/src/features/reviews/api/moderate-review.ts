import { api } from '../../../lib/api.ts';

/**
 * PUT /api/reviews/:id/status (admin): approves or hides the version of the review the admin read;
 * a 409 says it was edited since.
 */
export function moderateReview(
  id: string,
  decision: { status: 'approved' | 'hidden'; version: number },
): Promise<{ acknowledged: boolean; modifiedCount: number; message: string }> {
  return api(`/reviews/${encodeURIComponent(id)}/status`, { method: 'PUT', body: JSON.stringify(decision) });
}
