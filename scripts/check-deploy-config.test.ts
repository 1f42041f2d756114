import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const run = promisify(execFile);
const realConfig = readFileSync(join(root, 'wrangler.toml'), 'utf8');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A folder laid out like the project (its package.json, scripts and node_modules) with `config` as wrangler.toml. */
function projectWith(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-check-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'wrangler.toml'), config);
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  for (const linked of ['scripts', 'node_modules']) symlinkSync(join(root, linked), join(dir, linked));
  return dir;
}

async function check(config: string): Promise<{ code: number; output: string }> {
  const dir = projectWith(config);
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/check-deploy-config.ts'], { cwd: dir });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

describe('the deploy guard (scripts/check-deploy-config.ts)', () => {
  it('accepts the real wrangler.toml', async () => {
    expect(await check(realConfig)).toMatchObject({ code: 0 });
  });

  const bad: [string, string, string][] = [
    [
      'the emulator host in [vars]',
      realConfig.replace('[vars]\n', '[vars]\nFIREBASE_AUTH_EMULATOR_HOST = "127.0.0.1:9099"\n'),
      '[vars] sets FIREBASE_AUTH_EMULATOR_HOST',
    ],
    [
      'the unsigned-token flag in [vars]',
      realConfig.replace('[vars]\n', '[vars]\nALLOW_UNSIGNED_EMULATOR_TOKENS = "true"\n'),
      '[vars] sets ALLOW_UNSIGNED_EMULATOR_TOKENS',
    ],
    [
      'the test clock in [vars]',
      realConfig.replace('[vars]\n', '[vars]\nALLOW_TEST_CLOCK = "true"\n'),
      '[vars] sets ALLOW_TEST_CLOCK',
    ],
    [
      'the flag in an [env.*] section',
      `${realConfig}\n[env.staging.vars]\nALLOW_UNSIGNED_EMULATOR_TOKENS = "false"\n`,
      '[env.staging.vars] sets ALLOW_UNSIGNED_EMULATOR_TOKENS',
    ],
  ];
  for (const [what, config, problem] of bad) {
    it(`refuses ${what}, naming it`, async () => {
      const { code, output } = await check(config);
      expect(code).toBe(1);
      expect(output).toContain('Refusing to deploy');
      expect(output).toContain(problem);
    });
  }

  it('runs before wrangler in npm run deploy:check, which then stops', async () => {
    const dir = projectWith(bad[0]![1]);
    const outcome = await run('npm', ['run', 'deploy:check'], { cwd: dir }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect('code' in outcome ? outcome.code : 0).not.toBe(0);
    expect(outcome.stderr).toContain('[vars] sets FIREBASE_AUTH_EMULATOR_HOST');
    expect(outcome.stdout + outcome.stderr).not.toMatch(/wrangler \d+\.\d+/); // wrangler's banner: it never started
  });

  it('runs first in npm run deploy (not run here: a passing check would deploy)', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.deploy).toMatch(/^node scripts\/check-deploy-config\.ts && /);
    expect(scripts['deploy:check']).toMatch(/^node scripts\/check-deploy-config\.ts && wrangler deploy --dry-run/);
  });
});
