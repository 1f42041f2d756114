import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';

/** node:sqlite, loaded without its one-time "experimental" warning on the test's output. */
function sqlite(): typeof import('node:sqlite') {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: never[]) => {
    if (!String(warning).includes('SQLite')) emit.call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return createRequire(import.meta.url)('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
}

const open = new Map<string, DatabaseSync>();

/**
 * Runs SQL on a local D1 state folder (`wrangler dev --persist-to DIR`) as `wrangler d1 execute
 * --local` does, on the database file workerd keeps under DIR/v3/d1, opened once per folder (a query
 * costs a millisecond, where spawning wrangler cost two seconds). The Worker keeps running meanwhile:
 * each query sees what it has committed, and a write waits for its turn (SQLite's own locking).
 */
export function queryLocalD1<Row>(stateDir: string, sql: string): Row[] {
  let db = open.get(stateDir);
  if (!db) {
    const dir = join(stateDir, 'v3', 'd1', 'miniflare-D1DatabaseObject');
    const file = readdirSync(dir).find((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
    if (!file) throw new Error(`No local D1 database in ${dir}: has the Worker run with this state folder?`);
    db = new (sqlite().DatabaseSync)(join(dir, file));
    db.exec('PRAGMA busy_timeout = 10000');
    open.set(stateDir, db);
  }
  return db
    .prepare(sql)
    .all()
    .map((row) => ({ ...row }) as Row);
}
