import { api } from '../../../lib/api.ts';

/** DELETE /api/users/:id (admin); the server refuses an admin's own account. */
export function deleteUser(id: string): Promise<{ acknowledged: boolean; deletedCount: number }> {
  return api(`/users/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
