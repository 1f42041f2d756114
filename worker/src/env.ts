/** Bindings and variables from wrangler.toml (and secrets set with `wrangler secret put`). */
export interface Env {
  DB: D1Database;
  PHOTOS: R2Bucket;
  MAILER: SendEmail;
  /** Per-caller budgets (wrangler.toml [[ratelimits]]). */
  CONTACT_LIMITER: RateLimit;
  TOKEN_LIMITER: RateLimit;
  BOOKING_LIMITER: RateLimit;
  ASSETS: Fetcher;
  CLINIC_TIME_ZONE: string;
  BOOKING_HORIZON_DAYS: string;
  /** How many upcoming unpaid bookings of priced treatments one patient may hold (3). */
  MAX_UNPAID_BOOKINGS?: string;
  /** An unpaid booking is held at most this many hours after it was made (24)… */
  HOLD_HOURS_AFTER_BOOKING?: string;
  /** …and until this many hours before its start (12)… */
  HOLD_HOURS_BEFORE_START?: string;
  /** …but at least this many minutes after it was made (60), never past its start. */
  MIN_HOLD_MINUTES?: string;
  CLINIC_INBOX: string;
  MAIL_FROM: string;
  ADMIN_EMAILS: string;
  FIREBASE_PROJECT_ID: string;
  /** The PWA's Firebase authDomain when it is not <project>.firebaseapp.com (for the CSP). */
  FIREBASE_AUTH_DOMAIN?: string;
  /** Set only where the Firebase Auth emulator issues the ID tokens (never in production). */
  FIREBASE_AUTH_EMULATOR_HOST?: string;
  /**
   * "true" lets the emulator's unsigned ID tokens in (with FIREBASE_AUTH_EMULATOR_HOST also set).
   * Local only: passed by scripts/stack.ts and the Worker tests; a deploy refuses it.
   */
  ALLOW_UNSIGNED_EMULATOR_TOKENS?: string;
  /** Secret (wrangler secret put JWT_SECRET): signs the Worker's access tokens; 32+ characters. */
  JWT_SECRET?: string;
  /** Stripe keys (secrets). Without STRIPE_SECRET_KEY the demo payment provider is used. */
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /** Public: handed to the payment page so Stripe.js can mount the card element. */
  STRIPE_PUBLISHABLE_KEY?: string;
}
