// Stands in for vite-plugin-pwa's `virtual:pwa-register` in tests (see vitest.config.ts), which
// fake it with vi.mock to play the browser's part. There is no service worker in happy-dom.
import type { RegisterSWOptions } from 'vite-plugin-pwa/types';

export function registerSW(_options?: RegisterSWOptions): (reloadPage?: boolean) => Promise<void> {
  return async () => {};
}
