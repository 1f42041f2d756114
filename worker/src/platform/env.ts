/**
 * The Worker's bindings and `[vars]` are generated from wrangler.toml into `WranglerEnv`
 * (worker/worker-configuration.d.ts, checked in): after changing wrangler.toml run `npm run types`;
 * `npm test` fails while that file is stale. Secrets and settings that wrangler.toml does not hold
 * are declared here, optional, because the Worker runs without each of them.
 */
export interface Env extends WranglerEnv {
  /** The PWA's Firebase authDomain when it is not <project>.firebaseapp.com (for the CSP). */
  FIREBASE_AUTH_DOMAIN?: string;
  /** Set only where the Firebase Auth emulator issues the ID tokens (never in production). */
  FIREBASE_AUTH_EMULATOR_HOST?: string;
  /**
   * "true" lets the emulator's unsigned ID tokens in (with FIREBASE_AUTH_EMULATOR_HOST also set).
   * Local only: passed by scripts/stack.ts and the Worker tests; a deploy refuses it.
   */
  ALLOW_UNSIGNED_EMULATOR_TOKENS?: string;
  /**
   * "true" lets a request pin the clinic's clock with an X-Test-Clock header (platform/clock.ts).
   * Local only: the browser tests' stack sets it; a deploy refuses it.
   */
  ALLOW_TEST_CLOCK?: string;
  /** Secret (wrangler secret put JWT_SECRET): signs the Worker's access tokens; 32+ characters. */
  JWT_SECRET?: string;
  /** Stripe keys (secrets). Without STRIPE_SECRET_KEY the demo payment provider is used. */
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /** Public: handed to the payment page so Stripe.js can mount the card element. */
  STRIPE_PUBLISHABLE_KEY?: string;
  /** Twilio (secrets). Without all three the demo SMS provider is used (worker/src/messages/sms.ts). */
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  TWILIO_FROM?: string;
  /** Another Twilio-compatible API's origin (default https://api.twilio.com). */
  TWILIO_API_URL?: string;
}
