import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useSearchParams } from 'wouter';
import { Field } from '../../../components/field.tsx';
import { afterPaint } from '../../../lib/after-paint.ts';
import { logUnexpected } from '../../../lib/error-text.ts';
import { ApiError } from '../../../lib/http.ts';
import { useT } from '../../../lib/i18n.tsx';
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
  const t = useT();
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
    setError(authErrorText(cause, 'sign-up', t));
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
      setWaiting(t('signup.linkSent', { email }));
    } catch (cause) {
      showError(cause);
    }
  }

  if (waiting) {
    return (
      <section className="auth-card" aria-labelledby="signup-title">
        <h1 id="signup-title">{t('signup.check')}</h1>
        <p role="status" className="auth-card__notice">
          {waiting}
        </p>
        <Link href={withFrom('/login', from)} className="button button--primary button--block">
          {t('signup.goToLogin')}
        </Link>
      </section>
    );
  }

  return (
    <section className="auth-card" aria-labelledby="signup-title">
      <h1 id="signup-title">{t('signup.title')}</h1>
      <ChosenTime from={from} />
      <form className="auth-card__form" onSubmit={onSubmit} noValidate>
        <Field
          label={t('field.name')}
          autoComplete="name"
          registration={register('name', {
            required: t('signup.nameRequired'),
            validate: (value) => value.trim() !== '' || t('signup.nameRequired'),
          })}
          error={errors.name?.message}
        />
        <Field
          label={t('field.email')}
          type="email"
          autoComplete="email"
          registration={register('email', { required: t('signup.emailRequired') })}
          error={errors.email?.message}
        />
        <Field
          label={t('field.password')}
          type="password"
          autoComplete="new-password"
          hint={t('signup.passwordHint')}
          registration={register('password', {
            required: t('signup.passwordRequired'),
            minLength: { value: 6, message: t('auth.password.short') },
            pattern: { value: STRONG_PASSWORD, message: t('signup.passwordWeak') },
          })}
          error={errors.password?.message}
        />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button--primary button--block" disabled={isSubmitting || !ready}>
          {t('signup.submit')}
        </button>
        <button type="button" className="button button--block" onClick={() => void mailLink()} disabled={!ready}>
          {t('signup.mailLink')}
        </button>
      </form>
      <p className="auth-card__switch">
        {t('signup.haveAccount')} <Link href={withFrom('/login', from)}>{t('login.submit')}</Link>
      </p>
      <p className="divider">{t('auth.or')}</p>
      <GoogleSignInButton onSignedIn={goHome} onError={showError} />
      <p className="auth-card__privacy">
        <Link href="/privacy">{t('signup.privacy')}</Link>
        {t('signup.privacyRest')}
      </p>
    </section>
  );
}
