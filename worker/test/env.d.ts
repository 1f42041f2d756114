import type { D1Migration } from 'cloudflare:test';
import type { Env as WorkerEnv } from '../src/platform/env.ts';

declare global {
  // biome-ignore lint/style/noNamespace: Cloudflare.Env is declared as a namespace by the runtime types; only a namespace can extend it.
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      TIGHT_LIMITER: RateLimit;
    }
  }
}
