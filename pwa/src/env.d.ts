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
