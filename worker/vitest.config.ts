import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// Worker tests run inside workerd with the bindings of wrangler.toml (D1, R2, send_email)
// and the migrations applied; each test file starts on storage of its own (apply-migrations.ts).
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
            // Wide for the functional tests, which book many times as one patient; the tests of the
            // limit pass their own (or none, for the default).
            MAX_UNPAID_BOOKINGS: '1000',
            ALLOW_UNSIGNED_EMULATOR_TOKENS: 'true',
          },
          // The real rate-limiting bindings: wide budgets for the functional tests (the files of one
          // Vitest worker share them), and a tight one that the rate-limit tests swap in to reach the 429.
          ratelimits: {
            CONTACT_LIMITER: { namespace_id: '1001', simple: { limit: 100_000, period: 60 } },
            TOKEN_LIMITER: { namespace_id: '1002', simple: { limit: 100_000, period: 60 } },
            BOOKING_LIMITER: { namespace_id: '1003', simple: { limit: 100_000, period: 60 } },
            TIGHT_LIMITER: { namespace_id: '1999', simple: { limit: 3, period: 60 } },
          },
        },
      }),
    ],
    test: {
      include: ['worker/test/**/*.test.ts'],
      // Two files at once (Vitest's default leaves one of this machine's two cores idle), each worker one
      // workerd that loads the Worker's modules once for all its files; each file starts on fresh storage
      // (apply-migrations.ts). A fresh workerd per file made loading half the suite's time: 141 s
      // against 110 s alone.
      maxWorkers: 2,
      isolate: false,
      // A timeout here catches a hang, not slowness: beside the PWA's and the scripts' tests, a file that books
      // dozens of visits takes several seconds a test on a busy 2-core machine.
      testTimeout: 20_000,
      setupFiles: ['worker/test/apply-migrations.ts'],
    },
  };
});
