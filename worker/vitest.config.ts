import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

// Worker tests run inside workerd with the bindings of wrangler.toml (D1, R2, send_email)
// and the migrations applied; storage is isolated per test file.
export default defineConfig(async () => {
  const migrations = await readD1Migrations('migrations');
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            JWT_SECRET: 'test-only-secret-of-at-least-32-characters',
            FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
          },
        },
      }),
    ],
    test: {
      include: ['worker/test/**/*.test.ts'],
      setupFiles: ['worker/test/apply-migrations.ts'],
    },
  };
});
