import type { ReactNode } from 'react';
import { Navbar } from '../../components/navbar.tsx';
import { OfflineBanner } from '../../components/offline-banner.tsx';
import { VerifyEmailBanner } from '../../features/auth/components/verify-email-banner.tsx';
import { useT } from '../../lib/i18n.tsx';

/** The top of both layouts: the skip link, the navigation bar, the offline banner and the verify-your-email banner. */
export function SiteHeader({ menuButton }: { menuButton?: ReactNode }) {
  const t = useT();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <header className="header">
        <Navbar menuButton={menuButton} />
      </header>
      <OfflineBanner />
      <VerifyEmailBanner />
    </>
  );
}
