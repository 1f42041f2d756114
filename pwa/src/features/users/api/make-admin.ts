import type { AdminMade } from '../../../../../contract/users.ts';
import { api } from '../../../lib/api.ts';

/** PUT /api/users/admin/:id (admin): modifiedCount 0 with a message when the user already is one. */
export function makeAdmin(id: string): Promise<AdminMade> {
  return api<AdminMade>(`/users/admin/${encodeURIComponent(id)}`, { method: 'PUT' });
}
