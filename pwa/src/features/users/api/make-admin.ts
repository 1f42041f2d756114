import type { AdminMade } from '../../../../../contract/users.ts';
import { client } from '../../../lib/client.ts';

/** PUT /api/users/admin/:id (admin): modifiedCount 0 with a message when the user already is one. */
export function makeAdmin(id: string): Promise<AdminMade> {
  return client('PUT /users/admin/:target', { params: { target: id } });
}
