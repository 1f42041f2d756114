import type { Env } from './env.ts';

/**
 * The Content-Security-Policy: this origin, plus exactly the Firebase and Stripe origins their
 * features need (Google's gapi loader and auth iframe for the sign-in popup; Stripe.js and its
 * frames on the payment page), plus the Auth emulator where it is configured.
 */
export function contentSecurityPolicy(env: Env): string {
  const authDomain = env.FIREBASE_AUTH_DOMAIN || `${env.FIREBASE_PROJECT_ID}.firebaseapp.com`;
  const emulator = env.FIREBASE_AUTH_EMULATOR_HOST ? [`http://${env.FIREBASE_AUTH_EMULATOR_HOST}`] : [];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", 'https://js.stripe.com', 'https://apis.google.com'],
    // React style attributes and the toast library's injected styles.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https://*.googleusercontent.com', 'https://*.stripe.com'],
    'font-src': ["'self'"],
    'connect-src': [
      "'self'",
      // The photo being chosen, previewed from the device (a file that is no image included).
      'blob:',
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
      'https://api.stripe.com',
      ...emulator,
    ],
    'frame-src': ['https://js.stripe.com', 'https://hooks.stripe.com', `https://${authDomain}`, ...emulator],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** Security headers on every response, pages and API alike. */
export function withSecurityHeaders(response: Response, env: Env): Response {
  // Responses from the assets binding or fetch() have immutable headers.
  const secured = new Response(response.body, response);
  const headers = secured.headers;
  headers.set('Content-Security-Policy', contentSecurityPolicy(env));
  headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('X-Frame-Options', 'DENY');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com")');
  // The Google sign-in popup talks back to its opener.
  headers.set('Cross-Origin-Opener-Policy', 'same-origin-allow-popups');
  return secured;
}
