/**
 * Run by `npm run deploy` and `npm run deploy:check` before wrangler: a deployed Worker must never
 * accept the auth emulator's unsigned ID tokens nor let a request pin its clock, so a configuration
 * that sets a variable that opens either door, in [vars] or in any [env.<name>.vars], is refused
 * with exit code 1.
 *
 *   node scripts/check-deploy-config.ts [path/to/wrangler.toml]
 *
 * The file is read with wrangler's own reader (the same file `wrangler deploy` would pick). Secrets
 * set with `wrangler secret put` live in Cloudflare and are not seen here: never set these as secrets.
 */
import { experimental_readRawConfig } from 'wrangler';

/** Variables only the local stack and the tests may set (scripts/stack.ts, worker/vitest.config.ts). */
export const LOCAL_ONLY_VARS = [
  'FIREBASE_AUTH_EMULATOR_HOST',
  'ALLOW_UNSIGNED_EMULATOR_TOKENS',
  'ALLOW_TEST_CLOCK',
] as const;

type RawConfig = {
  vars?: Record<string, unknown>;
  env?: Record<string, { vars?: Record<string, unknown> } | undefined>;
};

/** One line per local-only variable the configuration sets, naming its section. */
export function localOnlyVarProblems(config: RawConfig): string[] {
  const sections: [string, Record<string, unknown> | undefined][] = [
    ['[vars]', config.vars],
    ...Object.entries(config.env ?? {}).map(([name, env]): [string, Record<string, unknown> | undefined] => [
      `[env.${name}.vars]`,
      env?.vars,
    ]),
  ];
  return sections.flatMap(([section, vars]) =>
    LOCAL_ONLY_VARS.filter((name) => vars && name in vars).map((name) => `${section} sets ${name}`),
  );
}

if (import.meta.main) {
  const { rawConfig, configPath } = experimental_readRawConfig({ config: process.argv[2] });
  if (!configPath) {
    console.error('No wrangler configuration found; nothing to deploy.');
    process.exit(1);
  }
  const problems = localOnlyVarProblems(rawConfig as RawConfig);
  if (problems.length > 0) {
    console.error(
      [
        `Refusing to deploy ${configPath}:`,
        ...problems.map((problem) => `  - ${problem}`),
        "These let the Worker accept the Firebase Auth emulator's unsigned ID tokens, so anyone could sign in as anyone.",
        'They are for the local stack only (scripts/stack.ts passes them with --var); remove them from the configuration.',
      ].join('\n'),
    );
    process.exit(1);
  }
  console.log(`${configPath}: no local-only variables; fit to deploy.`);
}
