import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const wrangler = join(require.resolve('wrangler/package.json'), '..', 'bin/wrangler.js');

/** Reads a local D1 state folder the way an operator would: `wrangler d1 execute --local`. */
export function queryLocalD1<Row>(stateDir: string, sql: string): Row[] {
  const output = execFileSync(
    process.execPath,
    [wrangler, 'd1', 'execute', 'DB', '--local', '--persist-to', stateDir, '--json', '--command', sql],
    { encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, maxBuffer: 64 * 1024 * 1024 },
  );
  const [result] = JSON.parse(output) as { results: Row[] }[];
  return result?.results ?? [];
}
