import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useSearchParams } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import { Field } from '../../../components/field.tsx';
import { afterPaint } from '../../../lib/after-paint.ts';
import { useT } from '../../../lib/i18n.tsx';
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

/** docs/product-visitors.md#login: email and password, or Google; then back to the page the visitor was sent from. */
export function LoginPage() {
  const clinic = useClinicInfo();
  const { signIn, ensureAuth, sendSignInLink, finishLinkSignIn } = useSession();
  const [, navigate] = useLocation();
  const [searchParams] = useSearchParams();
  const returnTo = safeReturnPath(searchParams.get('from'));
  const t = useT();
  const reason = loginReasonText(useHistoryState(), t);
  const [error, setError] = useState('');
  const [resetOpen, setResetOpen] = useState(false);
  // A sign-in link mailed (to whom), or opened on a device that does not know the address ('ask').
  const [link, setLink] = useState<{ sentTo: string } | 'ask' | null>(null);
  // Painted before its code has run (docs/performance.md): its buttons wait for it.
  const ready = useHydrated();
  const {
    register,
    handleSubmit,
    getValues,
    setFocus,
    trigger,
    unregister,
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
      if (link === 'ask') await finishLink(email);
      else {
        await signIn(email, password);
        goBack();
      }
    } catch (cause) {
      setError(authErrorText(cause, 'sign-in', t));
    }
  });

  /** Opened from a sign-in link: finishes signing in (with the address typed, when this device does not know it). */
  async function finishLink(email?: string) {
    const result = await finishLinkSignIn(window.location.href, email);
    if (result === 'signed-in') goBack();
    else if (result === 'needs-email') setLink('ask');
  }

  // The page a sign-in link opens: it signs in at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the address the page opened at.
  useEffect(() => {
    if (!new URLSearchParams(window.location.search).has('oobCode')) return;
    finishLink().catch((cause: unknown) => setError(authErrorText(cause, 'sign-in', t)));
  }, []);

  // Finishing a link needs the address only.
  useEffect(() => {
    if (link === 'ask') unregister('password');
  }, [link, unregister]);

  async function mailLink() {
    setError('');
    if (!(await trigger('email'))) return;
    const email = getValues('email');
    try {
      await sendSignInLink(email, null, returnTo);
      setLink({ sentTo: email });
    } catch (cause) {
      setError(authErrorText(cause, 'sign-in', t));
    }
  }

  return (
    <section className="auth-card" aria-labelledby="login-title">
      <h1 id="login-title">{t('login.title')}</h1>
      {reason && (
        <p className="auth-card__reason" role="status">
          {reason}
        </p>
      )}
      <ChosenTime from={from} />
      <form className="auth-card__form" onSubmit={onSubmit} noValidate>
        <Field
          label={t('field.email')}
          type="email"
          autoComplete="email"
          registration={register('email', { required: t('login.emailRequired') })}
          error={errors.email?.message}
        />
        {link === 'ask' ? (
          <p className="auth-card__reason" role="status">
            {t('login.linkAsk')}
          </p>
        ) : (
          <Field
            label={t('field.password')}
            type="password"
            autoComplete="current-password"
            registration={register('password', {
              required: t('login.passwordRequired'),
              minLength: { value: 6, message: t('auth.password.short') },
            })}
            error={errors.password?.message}
          />
        )}
        <button
          type="button"
          className="link-button auth-card__forgot"
          onClick={() => setResetOpen(true)}
          disabled={!ready}
        >
          {t('login.forgot')}
        </button>
        <button type="submit" className="button button--primary button--block" disabled={isSubmitting || !ready}>
          {link === 'ask' ? t('login.finish') : t('login.submit')}
        </button>
        <button type="button" className="button button--block" onClick={() => void mailLink()} disabled={!ready}>
          {t('login.mailLink')}
        </button>
        {link && link !== 'ask' && (
          <p className="auth-card__reason" role="status">
            {t('login.linkSent', { email: link.sentTo })}
          </p>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
      <p className="auth-card__switch">
        {t('login.new', { clinic: clinic.name })} <Link href={withFrom('/signup', from)}>{t('login.create')}</Link>
      </p>
      <p className="divider">{t('auth.or')}</p>
      <GoogleSignInButton
        onSignedIn={goBack}
        onError={(cause) => {
          setError(authErrorText(cause, 'sign-in', t));
        }}
      />
      {resetOpen && <ResetPasswordModal defaultEmail={getValues('email')} onClose={() => setResetOpen(false)} />}
    </section>
  );
}
