import { type ReactNode, type Ref, useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useClinicInfo } from '../lib/clinic-info.ts';
import { logUnexpected } from '../lib/error-text.ts';
import { type MessageKey, useT } from '../lib/i18n.tsx';
import { useInstallPrompt } from '../lib/install-prompt.ts';
import { useSession } from '../lib/session.tsx';
import { useHydrated } from '../lib/use-hydrated.ts';
import { LanguageSwitcher } from './language-switcher.tsx';

function NavLink({ href, className, label }: { href: string; className: string; label: MessageKey }) {
  const t = useT();
  const [location] = useLocation();
  const current = href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} className={className} aria-current={current ? 'page' : undefined}>
      {t(label)}
    </Link>
  );
}

/** The Menu button (a hamburger and the word) that shows or hides the menu `controls` names. */
export function MenuButton({
  open,
  controls,
  onToggle,
  ref,
}: {
  open: boolean;
  controls: string;
  onToggle(): void;
  ref?: Ref<HTMLButtonElement>;
}) {
  // On the landing page it paints before its code has run: until then a tap would open nothing.
  const ready = useHydrated();
  const t = useT();
  return (
    <button
      ref={ref}
      type="button"
      className="nav__toggle"
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
      disabled={!ready}
    >
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
      </svg>
      <span className="nav__toggle-label">{t('nav.menu')}</span>
    </button>
  );
}

/**
 * The site's links as list items (docs/product.md#navigation-bar): in the navigation bar, and in the
 * dashboard's drawer on phones, where that drawer's one menu button stands for both.
 */
export function SiteLinks({ linkClassName }: { linkClassName: string }) {
  const { user, signOut } = useSession();
  const { canInstall, install } = useInstallPrompt();
  const [location, navigate] = useLocation();
  const t = useT();

  // Leave the page first, so no guard on it sees the sign-out and sends the user to /login.
  async function handleSignOut() {
    navigate('/');
    try {
      await signOut();
    } catch (cause) {
      logUnexpected(cause);
    }
  }

  return (
    <>
      <li>
        <NavLink href="/" className={linkClassName} label="nav.home" />
      </li>
      <li>
        {/* docs/product.md#navigation-bar: on the home page the browser scrolls to the section itself;
            from another page the app goes home and the layout scrolls to it (public-layout.tsx). */}
        {location === '/' ? (
          <a href="/#doctors" className={linkClassName}>
            {t('nav.doctors')}
          </a>
        ) : (
          <Link href="/#doctors" className={linkClassName}>
            {t('nav.doctors')}
          </Link>
        )}
      </li>
      <li>
        <NavLink href="/appointment" className={linkClassName} label="nav.appointment" />
      </li>
      <li>
        <NavLink href="/review" className={linkClassName} label="nav.review" />
      </li>
      {canInstall && (
        <li>
          <button type="button" className={`${linkClassName} nav__install`} onClick={() => void install()}>
            {t('nav.install')}
          </button>
        </li>
      )}
      {user ? (
        <>
          <li>
            <NavLink href="/dashboard" className={linkClassName} label="nav.dashboard" />
          </li>
          <li>
            <button type="button" className={`${linkClassName} nav__signout`} onClick={handleSignOut}>
              {t('nav.signOut')}
            </button>
          </li>
        </>
      ) : (
        <li>
          <NavLink href="/login" className={linkClassName} label="nav.login" />
        </li>
      )}
      <li>
        <LanguageSwitcher />
      </li>
    </>
  );
}

/**
 * The navigation bar. On phones its links fold behind a Menu button; a layout with a drawer of its own
 * (the dashboard) passes that drawer's button instead, so a page never shows two menu buttons.
 */
export function Navbar({ menuButton }: { menuButton?: ReactNode }) {
  const clinic = useClinicInfo();
  const [location] = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const t = useT();

  // biome-ignore lint/correctness/useExhaustiveDependencies: location is the trigger, not an input: a navigation closes the menu.
  useEffect(() => setOpen(false), [location]);

  // The Doctors link on the home page only changes the hash: that closes the menu too.
  useEffect(() => {
    const close = () => setOpen(false);
    window.addEventListener('hashchange', close);
    return () => window.removeEventListener('hashchange', close);
  }, []);

  return (
    <nav className={menuButton ? 'nav nav--drawer' : 'nav'} aria-label={t('nav.main')}>
      <Link href="/" className="nav__brand">
        <svg className="nav__logo" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M21 12c-6 0-10 5-10 12 0 6 2 9 4 13 2 5 2 15 6 15s4-10 7-10h8c3 0 3 10 7 10s4-10 6-15c2-4 4-7 4-13 0-7-4-12-10-12-5 0-7 2-11 2s-6-2-11-2z"
          />
        </svg>
        <span data-clinic="name">{clinic.name}</span>
      </Link>
      {menuButton ?? <MenuButton open={open} controls={menuId} onToggle={() => setOpen((value) => !value)} />}
      <ul id={menuId} className="nav__links" data-open={open}>
        <SiteLinks linkClassName="nav__link" />
      </ul>
    </nav>
  );
}
