import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useSearchParams } from 'wouter';
import { Field } from '../../../components/field.tsx';
import { afterPaint } from '../../../lib/after-paint.ts';
import { logUnexpected } from '../../../lib/error-text.ts';
import { ApiError } from '../../../lib/http.ts';
import { safeReturnPath, withFrom } from '../../../lib/login-redirect.ts';
import { useSession } from '../../../lib/session.tsx';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { authErrorText } from '../auth-error-text.ts';
import { GoogleSignInButton } from './google-sign-in-button.tsx';
import '../auth.css';
import { ChosenTime } from './chosen-time.tsx';

type SignUpValues = { name: string; email: string; password: string };

/** docs/product-visitors.md#sign-up: an uppercase letter, a lowercase letter, a digit and one of ! @ # $ & *. */
export const STRONG_PASSWORD = /^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?=.*[!@#$&*])/;
/** What "strong" means, said before it is asked for (the spec's "password must be strong" stays the error). */
export const PASSWORD_HINT =
  'At least 6 characters, with an uppercase and a lowercase letter, a digit and one of ! @ # $ & *';

/** The front desk booked this email by phone: the record is handed over once the address is verified. */
const recordWaits = (cause: unknown): string | null =>
  cause instanceof ApiError &&
  cause.status === 403 &&
  typeof cause.body === 'object' &&
  cause.body !== null &&
  'recordWaitsForVerification' in cause.body
    ? cause.message
    : null;

/**
 * docs/product-visitors.md#sign-up: Name, Email, Password, or Google; then home, or back to the page the visitor
 * came from (`?from=`: a chosen time on the booking page), where the verification mail's link also leads.
 */
export function SignUpPage() {
  const { signUp, ensureAuth, sendSignInLink } = useSession();
  const [, navigate] = useLocation();
  const [searchParams] = useSearchParams();
  const from = searchParams.get('from');
  const returnTo = safeReturnPath(from);
  const [error, setError] = useState('');
  const [waiting, setWaiting] = useState<string | null>(null);
  // Painted before its code has run (docs/performance.md): its button waits for it.
  const ready = useHydrated();
  const {
    register,
    handleSubmit,
    setFocus,
    trigger,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<SignUpValues>({ defaultValues: { name: '', email: '', password: '' } });
  useEffect(() => setFocus('name'), [setFocus]);

  // Firebase warms up for the sign-in once the page is on screen, not before its first paint.
  useEffect(() => afterPaint(() => void ensureAuth()), [ensureAuth]);

  const goHome = () => navigate(returnTo, { replace: true });
  const showError = (cause: unknown) => {
    logUnexpected(cause);
    setError(authErrorText(cause, 'sign-up'));
  };

  const onSubmit = handleSubmit(async ({ name, email, password }) => {
    setError('');
    setWaiting(null);
    try {
      await signUp(name.trim(), email, password, from ? returnTo : null);
      goHome();
    } catch (cause) {
      const notice = recordWaits(cause);
      if (notice) setWaiting(notice);
      else showError(cause);
    }
  });

  /** Without a password: a link by mail makes the account and signs in, its address verified by opening it. */
  async function mailLink() {
    setError('');
    if (!(await trigger(['name', 'email']))) return;
    const { name, email } = getValues();
    try {
      await sendSignInLink(email, name.trim(), returnTo);
      setWaiting(`We sent a sign-in link to ${email}. Open it on this device to finish: no password needed.`);
    } catch (cause) {
      showError(cause);
    }
  }

  if (waiting) {
    return (
      <section className="auth-card" aria-labelledby="signup-title">
        <h1 id="signup-title">Check your email</h1>
        <p role="status" className="auth-card__notice">
          {waiting}
        </p>
        <Link href={withFrom('/login', from)} className="button button--primary button--block">
          Go to Login
        </Link>
      </section>
    );
  }

  return (
    <section className="auth-card" aria-labelledby="signup-title">
      <h1 id="signup-title">Sign Up</h1>
      <ChosenTime from={from} />
      <form className="auth-card__form" onSubmit={onSubmit} noValidate>
        <Field
          label="Name"
          autoComplete="name"
          registration={register('name', {
            required: 'name is required',
            validate: (value) => value.trim() !== '' || 'name is required',
          })}
          error={errors.name?.message}
        />
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          registration={register('email', { required: 'email is required' })}
          error={errors.email?.message}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
          registration={register('password', {
            required: 'password is required',
            minLength: { value: 6, message: 'password must be 6 characters' },
            pattern: { value: STRONG_PASSWORD, message: 'password must be strong' },
          })}
          error={errors.password?.message}
        />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button--primary button--block" disabled={isSubmitting || !ready}>
          Sign Up
        </button>
        <button type="button" className="button button--block" onClick={() => void mailLink()} disabled={!ready}>
          Email me a link instead (no password)
        </button>
      </form>
      <p className="auth-card__switch">
        Already have an account? <Link href={withFrom('/login', from)}>Login</Link>
      </p>
      <p className="divider">OR</p>
      <GoogleSignInButton onSignedIn={goHome} onError={showError} />
      <p className="auth-card__privacy">
        <Link href="/privacy">Privacy and your data</Link>: what we keep, for how long, and how to erase it.
      </p>
    </section>
  );
}
