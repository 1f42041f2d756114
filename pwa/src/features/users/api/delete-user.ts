import type { Deleted } from '../../../../../contract/answers.ts';
import { api } from '../../../lib/api.ts';

/** DELETE /api/users/:id (admin); the server refuses an admin's own account. */
export function deleteUser(id: string): Promise<Deleted> {
  return api(`/users/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
