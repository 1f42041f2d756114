import { api } from '../../../lib/api.ts';

export type MakeAdminResult = { acknowledged: boolean; modifiedCount: number; message: string };

/** PUT /api/users/admin/:id (admin): modifiedCount 0 with a message when the user already is one. */
export function makeAdmin(id: string): Promise<MakeAdminResult> {
  return api<MakeAdminResult>(`/users/admin/${encodeURIComponent(id)}`, { method: 'PUT' });
}
