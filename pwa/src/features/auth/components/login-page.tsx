import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useSearchParams } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import { FormField } from '../../../components/form-field.tsx';
import { afterPaint } from '../../../lib/after-paint.ts';
import { loginReasonText, safeReturnPath, withFrom } from '../../../lib/login-redirect.ts';
import { useSession } from '../../../lib/session.tsx';
import { unexpiredAccessClaims } from '../../../lib/stored-access-token.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { authErrorText } from '../auth-error-text.ts';
import { GoogleSignInButton } from './google-sign-in-button.tsx';
import { ResetPasswordModal } from './reset-password-modal.tsx';
import '../auth.css';
import { useClinicInfo } from '../../../lib/clinic-info.ts';
import { ChosenTime } from './chosen-time.tsx';

type LoginValues = { email: string; password: string };

/** docs/product.md#login: email and password, or Google; then back to the page the visitor was sent from. */
export function LoginPage() {
  const clinic = useClinicInfo();
  const { signIn, ensureAuth } = useSession();
  const [, navigate] = useLocation();
  const [searchParams] = useSearchParams();
  const returnTo = safeReturnPath(searchParams.get('from'));
  const reason = loginReasonText(useHistoryState());
  const [error, setError] = useState('');
  const [resetOpen, setResetOpen] = useState(false);
  // Painted before its code has run (docs/performance.md): its buttons wait for it.
  const ready = useHydrated();
  const {
    register,
    handleSubmit,
    getValues,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({ defaultValues: { email: '', password: '' } });
  // The first field is where the visitor starts, not eight Tabs away.
  useEffect(() => setFocus('email'), [setFocus]);
  const from = searchParams.get('from');

  // Firebase warms up for the sign-in once the page is on screen, not before its first paint.
  useEffect(() => afterPaint(() => void ensureAuth()), [ensureAuth]);

  // Back to where the visitor was sent from; signed in from the login page itself, the clinic's staff
  // start their day on the schedule (the access token says who is staff).
  const goBack = () =>
    navigate(returnTo === '/' && unexpiredAccessClaims()?.role === 'admin' ? '/dashboard/schedule' : returnTo, {
      replace: true,
    });

  const onSubmit = handleSubmit(async ({ email, password }) => {
    setError('');
    try {
      await signIn(email, password);
      goBack();
    } catch (cause) {
      setError(authErrorText(cause, 'sign-in'));
    }
  });

  return (
    <section className="auth-card" aria-labelledby="login-title">
      <h1 id="login-title">Login</h1>
      {reason && (
        <p className="auth-card__reason" role="status">
          {reason}
        </p>
      )}
      <ChosenTime from={from} />
      <form className="auth-card__form" onSubmit={onSubmit} noValidate>
        <FormField
          label="Email"
          type="email"
          autoComplete="email"
          registration={register('email', { required: 'This is email required!' })}
          error={errors.email?.message}
        />
        <FormField
          label="Password"
          type="password"
          autoComplete="current-password"
          registration={register('password', {
            required: 'This password required!',
            minLength: { value: 6, message: 'password must be 6 characters' },
          })}
          error={errors.password?.message}
        />
        <button
          type="button"
          className="link-button auth-card__forgot"
          onClick={() => setResetOpen(true)}
          disabled={!ready}
        >
          Forgot password?
        </button>
        <button type="submit" className="button button--primary button--block" disabled={isSubmitting || !ready}>
          Login
        </button>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
      <p className="auth-card__switch">
        New to {clinic.name}? <Link href={withFrom('/signup', from)}>Create new account</Link>
      </p>
      <p className="divider">OR</p>
      <GoogleSignInButton
        onSignedIn={goBack}
        onError={(cause) => {
          setError(authErrorText(cause, 'sign-in'));
        }}
      />
      {resetOpen && <ResetPasswordModal defaultEmail={getValues('email')} onClose={() => setResetOpen(false)} />}
    </section>
  );
}
