import { type ReactNode, useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { Footer } from '../../components/footer.tsx';
import { ErrorBoundary } from '../error-boundary.tsx';
import { PageBoundary } from '../page-boundary.tsx';
import { SiteHeader } from './site-header.tsx';

/** docs/product.md#public-layout: navigation bar, page content, footer; 1300 px wide at most. */
export function PublicLayout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const shownLocation = useRef(location);

  // A new page starts at the top, as it would with full page loads, or at the section its URL names
  // (the navigation bar's /#doctors).
  useEffect(() => {
    if (shownLocation.current === location) return;
    shownLocation.current = location;
    const section = window.location.hash ? document.getElementById(window.location.hash.slice(1)) : null;
    if (section) section.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location]);

  return (
    <div className="page">
      <SiteHeader />
      <main id="main" tabIndex={-1}>
        <ErrorBoundary resetKey={location}>
          <PageBoundary>{children}</PageBoundary>
        </ErrorBoundary>
      </main>
      <Footer />
    </div>
  );
}
