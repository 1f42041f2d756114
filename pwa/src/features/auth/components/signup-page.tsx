import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'wouter';
import { FormField } from '../../../components/form-field.tsx';
import { afterPaint } from '../../../lib/after-paint.ts';
import { useSession } from '../../../lib/session.tsx';
import { authErrorText } from '../auth-error-text.ts';
import { GoogleSignInButton } from './google-sign-in-button.tsx';
import '../auth.css';

type SignUpValues = { name: string; email: string; password: string };

/** docs/product.md#sign-up: an uppercase letter, a lowercase letter, a digit and one of ! @ # $ & *. */
export const STRONG_PASSWORD = /^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?=.*[!@#$&*])/;

/** docs/product.md#sign-up: Name, Email, Password, or Google; then home. */
export function SignUpPage() {
  const { signUp, ensureAuth } = useSession();
  const [, navigate] = useLocation();
  const [error, setError] = useState('');
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignUpValues>({ defaultValues: { name: '', email: '', password: '' } });

  // Firebase warms up for the sign-in once the page is on screen, not before its first paint.
  useEffect(() => afterPaint(() => void ensureAuth()), [ensureAuth]);

  const goHome = () => navigate('/', { replace: true });
  const showError = (cause: unknown) => {
    console.error(cause);
    setError(authErrorText(cause, 'sign-up'));
  };

  const onSubmit = handleSubmit(async ({ name, email, password }) => {
    setError('');
    try {
      await signUp(name.trim(), email, password);
      goHome();
    } catch (cause) {
      showError(cause);
    }
  });

  return (
    <section className="auth-card" aria-labelledby="signup-title">
      <h1 id="signup-title">Sign Up</h1>
      <form className="auth-card__form" onSubmit={onSubmit} noValidate>
        <FormField
          label="Name"
          autoComplete="name"
          registration={register('name', {
            required: 'name is required',
            validate: (value) => value.trim() !== '' || 'name is required',
          })}
          error={errors.name?.message}
        />
        <FormField
          label="Email"
          type="email"
          autoComplete="email"
          registration={register('email', { required: 'email is required' })}
          error={errors.email?.message}
        />
        <FormField
          label="Password"
          type="password"
          autoComplete="new-password"
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
        <button type="submit" className="button button--primary button--block" disabled={isSubmitting}>
          Sign Up
        </button>
      </form>
      <p className="auth-card__switch">
        Already have an account? <Link href="/login">Login</Link>
      </p>
      <p className="divider">OR</p>
      <GoogleSignInButton onSignedIn={goHome} onError={showError} />
    </section>
  );
}
