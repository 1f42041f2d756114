import { applyD1Migrations, env } from 'cloudflare:test';
import { afterAll, vi } from 'vitest';
import { forgetClinicInfo } from '../src/clinic/clinic-info.ts';

// The test files of one Vitest worker share one workerd, its storage and the Worker's modules
// (`isolate: false` in worker/vitest.config.ts: the modules load once per worker, not once per
// file). Each file starts from what the migrations make and nothing else: the previous file's
// tables and photos are dropped first, and what an isolate remembers of them is forgotten.
// Triggers and views first, then the tables, the latest made first (a table's children before it).
const { results: objects } = await env.DB.prepare(
  `SELECT type, name FROM sqlite_master
   WHERE type IN ('trigger', 'view', 'table') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'
   ORDER BY type = 'table', rowid DESC`,
).all<{ type: string; name: string }>();
if (objects.length) {
  await env.DB.batch([
    env.DB.prepare('PRAGMA defer_foreign_keys = on'),
    ...objects.map((o) => env.DB.prepare(`DROP ${o.type.toUpperCase()} "${o.name}"`)),
  ]);
}
for (let listed = await env.PHOTOS.list(); listed.objects.length; listed = await env.PHOTOS.list()) {
  await env.PHOTOS.delete(listed.objects.map((o) => o.key));
}
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
forgetClinicInfo();

// Whatever a file pinned or stubbed ends with it.
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
