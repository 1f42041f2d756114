/** `npm run reset`: forget every local booking, user and photo; the next `npm start` seeds anew. */
import { rmSync } from 'node:fs';

for (const dir of ['.wrangler/state', '.firebase-emulator']) rmSync(dir, { recursive: true, force: true });
console.log('Local data deleted. `npm start` seeds a fresh clinic.');
