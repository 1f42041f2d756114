/**
 * `npm test`: every check and test suite of the project, as npm scripts run in stages. The steps of
 * one stage share no port and no build output, so they run side by side (their output is printed
 * whole as each ends); the stages run one after the other, and a failing stage stops the run. At the
 * end a table says where the time went. `npm test -- NAME…` runs only the named steps, in order.
 */
import { spawn } from 'node:child_process';

/** Stages of npm scripts; each stage runs at most `parallel` of its steps at once. */
const STAGES: { name: string; parallel: number; steps: string[] }[] = [
  {
    name: 'checks and build',
    parallel: 3,
    steps: ['typecheck', 'lint', 'check:docs', 'check:runtime', 'check:types', 'audit:prod', 'build'],
  },
  // Each Worker test file runs in workerd with storage of its own; the PWA's tests in happy-dom; the
  // build's and the scripts' (which start the local stack on 8787 and 9099) in Node. The Worker's suite,
  // the longest, starts beside the scripts' (which mostly waits for npm start); the PWA's follows the
  // scripts'. All three are CPU-bound enough that the order made no measurable difference (docs/testing.md).
  {
    name: 'unit and integration',
    parallel: 2,
    steps: ['test:worker', 'test:scripts', 'test:pwa', 'test:build', 'deploy:check'],
  },
  // Chromium against the local stack on 8787 and 9099.
  { name: 'browser', parallel: 1, steps: ['test:e2e'] },
];

interface Outcome {
  step: string;
  stage: string;
  seconds: number;
  code: number;
}

function run(step: string, live: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', step], {
      stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function runStage(stage: (typeof STAGES)[number], steps: string[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const queue = [...steps];
  const live = Math.min(stage.parallel, steps.length) === 1;
  async function worker() {
    for (let step = queue.shift(); step !== undefined; step = queue.shift()) {
      const started = performance.now();
      if (live) console.log(`\n── ${step}`);
      const { code, output } = await run(step, live);
      const seconds = (performance.now() - started) / 1000;
      if (!live)
        console.log(
          `\n── ${step} (${seconds.toFixed(1)} s${code ? `, failed with ${code}` : ''})\n${output.trimEnd()}`,
        );
      outcomes.push({ step, stage: stage.name, seconds, code });
    }
  }
  await Promise.all(Array.from({ length: Math.min(stage.parallel, steps.length) }, worker));
  return outcomes;
}

function report(outcomes: Outcome[], stageTimes: { name: string; seconds: number }[], total: number) {
  const width = Math.max(...outcomes.map((o) => o.step.length), 4);
  console.log('\nWhere the time went (steps of one stage run side by side):\n');
  console.log(`  ${'step'.padEnd(width)}  ${'stage'.padEnd(22)}  seconds  result`);
  for (const o of outcomes) {
    console.log(
      `  ${o.step.padEnd(width)}  ${o.stage.padEnd(22)}  ${o.seconds.toFixed(1).padStart(7)}  ${o.code ? 'FAILED' : 'ok'}`,
    );
  }
  console.log('');
  for (const s of stageTimes) console.log(`  stage ${s.name.padEnd(width + 16)}  ${s.seconds.toFixed(1).padStart(7)}`);
  console.log(`  ${'total'.padEnd(width + 24)}  ${total.toFixed(1).padStart(7)}\n`);
}

const only = process.argv.slice(2);
const known = STAGES.flatMap((s) => s.steps);
const unknown = only.filter((step) => !known.includes(step));
if (unknown.length) {
  console.error(`No such step: ${unknown.join(', ')}. The steps: ${known.join(', ')}`);
  process.exit(2);
}

const started = performance.now();
const outcomes: Outcome[] = [];
const stageTimes: { name: string; seconds: number }[] = [];
let failed = false;
for (const stage of STAGES) {
  const steps = only.length ? stage.steps.filter((step) => only.includes(step)) : stage.steps;
  if (steps.length === 0) continue;
  const stageStarted = performance.now();
  const done = await runStage(stage, steps);
  outcomes.push(...done);
  stageTimes.push({ name: stage.name, seconds: (performance.now() - stageStarted) / 1000 });
  if (done.some((o) => o.code !== 0)) {
    failed = true;
    break;
  }
}
report(outcomes, stageTimes, (performance.now() - started) / 1000);
if (failed) {
  console.error(
    `Failed: ${outcomes
      .filter((o) => o.code !== 0)
      .map((o) => o.step)
      .join(', ')}`,
  );
  process.exit(1);
}
