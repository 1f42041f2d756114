import { useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useInstallPrompt } from '../lib/install-prompt.ts';
import { useSession } from '../lib/session.tsx';

function NavLink({ href, children }: { href: string; children: string }) {
  const [location] = useLocation();
  const current = href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} className="nav__link" aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

export function Navbar() {
  const { user, signOut } = useSession();
  const { canInstall, install } = useInstallPrompt();
  const [location, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: location is the trigger, not an input: a navigation closes the menu.
  useEffect(() => setOpen(false), [location]);

  // The Doctors link on the home page only changes the hash: that closes the menu too.
  useEffect(() => {
    const close = () => setOpen(false);
    window.addEventListener('hashchange', close);
    return () => window.removeEventListener('hashchange', close);
  }, []);

  // Leave the page first, so no guard on it sees the sign-out and sends the user to /login.
  async function handleSignOut() {
    navigate('/');
    try {
      await signOut();
    } catch (cause) {
      console.error(cause);
    }
  }

  return (
    <nav className="nav" aria-label="Main">
      <Link href="/" className="nav__brand">
        <svg className="nav__logo" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M21 12c-6 0-10 5-10 12 0 6 2 9 4 13 2 5 2 15 6 15s4-10 7-10h8c3 0 3 10 7 10s4-10 6-15c2-4 4-7 4-13 0-7-4-12-10-12-5 0-7 2-11 2s-6-2-11-2z"
          />
        </svg>
        Smile Dental Clinic
      </Link>
      <button
        type="button"
        className="nav__toggle"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
          <path fill="currentColor" d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
        </svg>
        <span>Menu</span>
      </button>
      <ul id={menuId} className="nav__links" data-open={open}>
        <li>
          <NavLink href="/">Home</NavLink>
        </li>
        <li>
          {/* docs/product.md#navigation-bar: on the home page the browser scrolls to the section itself;
              from another page the app goes home and the layout scrolls to it (public-layout.tsx). */}
          {location === '/' ? (
            <a href="/#doctors" className="nav__link">
              Doctors
            </a>
          ) : (
            <Link href="/#doctors" className="nav__link">
              Doctors
            </Link>
          )}
        </li>
        <li>
          <NavLink href="/appointment">Appointment</NavLink>
        </li>
        <li>
          <NavLink href="/review">Review</NavLink>
        </li>
        {canInstall && (
          <li>
            <button type="button" className="nav__link nav__install" onClick={() => void install()}>
              Install app
            </button>
          </li>
        )}
        {user ? (
          <>
            <li>
              <NavLink href="/dashboard">Dashboard</NavLink>
            </li>
            <li>
              <button type="button" className="nav__link nav__signout" onClick={handleSignOut}>
                Sign Out
              </button>
            </li>
          </>
        ) : (
          <li>
            <NavLink href="/login">Login</NavLink>
          </li>
        )}
      </ul>
    </nav>
  );
}
