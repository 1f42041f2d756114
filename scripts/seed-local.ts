/**
 * Migrates and seeds a local state folder: the migrations it has not had, then treatments, doctors, reviews and the seed users (bound to their emulator uids) in D1, their photos in R2; safe to
 * run again. scripts/stack.ts runs it as a process of its own under child-guard.ts, so the workerd
 * it starts cannot outlive `npm start`. Usage: node scripts/seed-local.ts <state dir> <{email: uid} of the seed accounts>
 */
import { avatarPng } from './avatar-png.ts';
import { SEED_DOCTORS, SEED_REVIEWS, seedStatements } from './seed-data.ts';
import { applyMigrations, withLocalBindings } from './stack.ts';

const [stateDir, uidsJson] = process.argv.slice(2);
if (!stateDir || !uidsJson)
  throw new Error('usage: node scripts/seed-local.ts <state dir> <seed account uids as JSON>');
const accountUids = JSON.parse(uidsJson) as Record<string, string>;

await withLocalBindings(stateDir, async (env) => {
  await applyMigrations(env.DB);
  await env.DB.batch(seedStatements(accountUids).map(({ sql, params }) => env.DB.prepare(sql).bind(...params)));
  for (const { imageKey, look } of [...SEED_DOCTORS, ...SEED_REVIEWS]) {
    if (await env.PHOTOS.head(imageKey)) continue;
    await env.PHOTOS.put(imageKey, avatarPng(look), { httpMetadata: { contentType: 'image/png' } });
  }
});
