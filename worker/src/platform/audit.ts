import { type AuditPage, BAD_CURSOR } from '../../../contract/audit.ts';
import { type AuditPosition, auditPage, toAuditEntry } from './data/audit.ts';
import type { Env } from './env.ts';
import { HttpError, json } from './http.ts';
import { inputOf } from './input.ts';

/** The cursor of the page after `last`: its (at, id), base64url-encoded; opaque to clients. */
function cursorAfter(last: AuditPosition): string {
  return btoa(`${last.at}|${last.id}`).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function positionOf(cursor: string): AuditPosition {
  let decoded: string;
  try {
    decoded = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    throw new HttpError(400, BAD_CURSOR);
  }
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\|(\d{1,15})$/.exec(decoded);
  if (!match) throw new HttpError(400, BAD_CURSOR);
  return { at: match[1] as string, id: Number(match[2]) };
}

/** GET /api/audit?cursor=&actor=&type=&limit= (admin): the audit trail, newest first, a page at a time. */
export async function listAudit(request: Request, env: Env): Promise<Response> {
  const query = inputOf(request, 'GET /audit').query;
  const limit = query.limit ?? 50;
  // One more than a page tells whether another follows.
  const rows = await auditPage(env.DB, {
    after: query.cursor === undefined ? undefined : positionOf(query.cursor),
    filter: { actor: query.actor, action: query.type },
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return json({
    entries: page.map(toAuditEntry),
    nextCursor: rows.length > limit && last ? cursorAfter(last) : null,
  } satisfies AuditPage);
}
