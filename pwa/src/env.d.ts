/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/vanillajs" />

interface ImportMetaEnv {
  /** Firebase web config; all optional: unset, the app uses the local `demo-clinic` project and the Auth emulator. */
  readonly VITE_FIREBASE_API_KEY?: string;
  readonly VITE_FIREBASE_AUTH_DOMAIN?: string;
  readonly VITE_FIREBASE_PROJECT_ID?: string;
  /** host:port (or URL) of the Auth emulator; set, it is used whatever the project id. */
  readonly VITE_FIREBASE_AUTH_EMULATOR_HOST?: string;
}

/** A language's compiled catalog (scripts/catalogs.ts); `en` and `en-rest` are English's two parts. */
declare module 'virtual:messages/en-rest' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}

declare module 'virtual:messages/*' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}

/** Each language's compiled catalog, loaded on demand (scripts/catalogs.ts). */
declare module 'virtual:messages' {
  import type { Messages } from '@lingui/core';
  /** By language (contract/languages.ts). */
  export const loaders: Record<string, () => Promise<{ messages: Messages }>>;
}
