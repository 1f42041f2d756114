/**
 * Fails on high or critical advisories in the production dependencies (`npm audit --omit=dev`).
 * When the registry offers no advisory service (as on a mirror that refuses the audit call),
 * it says so plainly and does not pretend the dependencies were checked.
 */
import { spawnSync } from 'node:child_process';

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8' });
let report: { metadata?: { vulnerabilities?: Record<string, number> }; statusCode?: number; message?: string };
try {
  report = JSON.parse(run.stdout || '{}');
} catch {
  report = {};
}

const counts = report.metadata?.vulnerabilities;
if (!counts) {
  console.warn(
    `audit: NOT CHECKED — the registry's advisory service did not answer (${report.message ?? run.stderr.trim().split('\n').pop()})`,
  );
  process.exit(0);
}
const serious = (counts.high ?? 0) + (counts.critical ?? 0);
console.log(
  `audit: production dependencies — critical ${counts.critical ?? 0}, high ${counts.high ?? 0}, moderate ${counts.moderate ?? 0}, low ${counts.low ?? 0}`,
);
if (serious > 0) {
  console.error('audit: high or critical advisories found; run `npm audit --omit=dev` for details');
  process.exit(1);
}
