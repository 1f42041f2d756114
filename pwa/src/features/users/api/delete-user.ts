import type { Deleted } from '../../../../../contract/answers.ts';
import { client } from '../../../lib/client.ts';

/** DELETE /api/users/:id (admin); the server refuses an admin's own account. */
export function deleteUser(id: string): Promise<Deleted> {
  return client('DELETE /users/:id', { params: { id } });
}
