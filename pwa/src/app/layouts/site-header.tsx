import { Navbar } from '../../components/navbar.tsx';
import { OfflineBanner } from '../../components/offline-banner.tsx';

/** The top of both layouts: the skip link, the navigation bar and the offline banner. */
export function SiteHeader() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="header">
        <Navbar />
      </header>
      <OfflineBanner />
    </>
  );
}
