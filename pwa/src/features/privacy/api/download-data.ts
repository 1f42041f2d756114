import { client } from '../../../lib/client.ts';
import { saveFile } from '../../../lib/save-file.ts';

/** GET /api/users/me/export (or an admin's /users/:id/export) as a file: everything the clinic holds. */
export async function downloadData(userId: string | null): Promise<void> {
  const headers = { Accept: 'application/octet-stream' };
  const file = userId
    ? await client('GET /users/:id/export', { params: { id: userId }, headers })
    : await client('GET /users/me/export', { headers });
  saveFile(file, `my-data-${new Date().toISOString().slice(0, 10)}.json`);
}
