/** Bindings and variables from wrangler.toml (and secrets set with `wrangler secret put`). */
export interface Env {
  DB: D1Database;
  PHOTOS: R2Bucket;
  MAILER: SendEmail;
  ASSETS: Fetcher;
  CLINIC_TIME_ZONE: string;
  BOOKING_HORIZON_DAYS: string;
  CLINIC_INBOX: string;
  MAIL_FROM: string;
  ADMIN_EMAILS: string;
  FIREBASE_PROJECT_ID: string;
}
