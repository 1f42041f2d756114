/**
 * Seeds a local state folder: treatments, doctors and reviews in D1, their photos in R2; safe to
 * run again. scripts/stack.ts runs it as a process of its own under child-guard.ts, so the workerd
 * it starts cannot outlive `npm start`. Usage: node scripts/seed-local.ts <state dir>
 */
import { avatarPng } from './avatar-png.ts';
import { SEED_DOCTORS, SEED_REVIEWS, seedStatements } from './seed-data.ts';
import { withLocalBindings } from './stack.ts';

const stateDir = process.argv[2];
if (!stateDir) throw new Error('usage: node scripts/seed-local.ts <state dir>');

await withLocalBindings(stateDir, async (env) => {
  await env.DB.batch(seedStatements().map(({ sql, params }) => env.DB.prepare(sql).bind(...params)));
  for (const { imageKey, look } of [...SEED_DOCTORS, ...SEED_REVIEWS]) {
    if (await env.PHOTOS.head(imageKey)) continue;
    await env.PHOTOS.put(imageKey, avatarPng(look), { httpMetadata: { contentType: 'image/png' } });
  }
});
