import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { MenuButton, SiteLinks } from '../../components/navbar.tsx';
import { useAdmin } from '../../features/users/api/get-admin-status.ts';
import { type MessageKey, useT } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { ErrorBoundary } from '../error-boundary.tsx';
import { PageBoundary } from '../page-boundary.tsx';
import { SiteHeader } from './site-header.tsx';

function MenuLink({ href, label }: { href: string; label: MessageKey }) {
  const [location] = useLocation();
  const t = useT();
  return (
    <Link href={href} className="dashboard__link" aria-current={location === href ? 'page' : undefined}>
      {t(label)}
    </Link>
  );
}

/**
 * docs/product.md#dashboard-layout: the navigation bar, then a side menu beside the page. On small screens
 * the menu is a drawer behind the navigation bar's one Menu button, and holds the site's links too.
 */
export function DashboardLayout({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  const { isAdmin } = useAdmin(loading ? null : user?.email);
  const [location] = useLocation();
  const [open, setOpen] = useState(false);
  const t = useT();
  const menuId = useId();
  const menuRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const shownLocation = useRef(location);

  useEffect(() => {
    setOpen(false);
    if (shownLocation.current === location) return;
    shownLocation.current = location;
    window.scrollTo(0, 0);
  }, [location]);

  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('a[href]')?.focus();
  }, [open]);

  function close() {
    setOpen(false);
    toggleRef.current?.focus();
  }

  function handleKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (open && event.key === 'Escape') close();
  }

  return (
    <div className="page">
      <SiteHeader
        menuButton={
          <MenuButton ref={toggleRef} open={open} controls={menuId} onToggle={() => setOpen((value) => !value)} />
        }
      />
      {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/noNoninteractiveElementInteractions: it catches Escape bubbling up from the focusable links and buttons of the open menu. */}
      <div className="dashboard" onKeyDown={handleKeyDown}>
        {open && <div className="dashboard__backdrop" aria-hidden="true" onClick={close} />}
        <nav ref={menuRef} id={menuId} className="dashboard__menu" data-open={open} aria-label={t('nav.dashboard')}>
          <ul>
            <li>
              <MenuLink href="/dashboard" label="menu.mine" />
            </li>
            {isAdmin && (
              <>
                <li>
                  <MenuLink href="/dashboard/schedule" label="menu.schedule" />
                </li>
                <li>
                  <MenuLink href="/dashboard/insights" label="menu.insights" />
                </li>
                <li>
                  <MenuLink href="/dashboard/recalls" label="menu.recalls" />
                </li>
                <li>
                  <MenuLink href="/dashboard/all-users" label="menu.allUsers" />
                </li>
                <li>
                  <MenuLink href="/dashboard/add-doctors" label="menu.addDoctors" />
                </li>
                <li>
                  <MenuLink href="/dashboard/manage-doctors" label="menu.manageDoctors" />
                </li>
                <li>
                  <MenuLink href="/dashboard/treatments" label="menu.treatments" />
                </li>
                <li>
                  <MenuLink href="/dashboard/form-templates" label="menu.formTemplates" />
                </li>
                <li>
                  <MenuLink href="/dashboard/clinic-hours" label="menu.clinicHours" />
                </li>
                <li>
                  <MenuLink href="/dashboard/chairs" label="menu.chairs" />
                </li>
                <li>
                  <MenuLink href="/dashboard/specialties" label="menu.specialties" />
                </li>
                <li>
                  <MenuLink href="/dashboard/refunds" label="menu.refunds" />
                </li>
                <li>
                  <MenuLink href="/dashboard/reviews" label="menu.reviews" />
                </li>
                <li>
                  <MenuLink href="/dashboard/activity" label="menu.activity" />
                </li>
                <li>
                  <MenuLink href="/dashboard/settings" label="menu.settings" />
                </li>
              </>
            )}
          </ul>
          {/* In drawer mode the navigation bar's links are folded away: the drawer offers them. */}
          {open && (
            <ul className="dashboard__site-links">
              <SiteLinks linkClassName="dashboard__link" />
            </ul>
          )}
        </nav>
        <main id="main" className="dashboard__content" tabIndex={-1}>
          <ErrorBoundary resetKey={location}>
            <PageBoundary>{children}</PageBoundary>
          </ErrorBoundary>
        </main>
      </div>
    </div>
  );
}
