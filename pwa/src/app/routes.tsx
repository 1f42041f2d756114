import { type ComponentType, createElement, lazy, Suspense, useEffect, useState } from 'react';
import { parse } from 'regexparam';
import { matchRoute, Route, Switch, useLocation } from 'wouter';
import { useKiosk } from '../features/forms/api/kiosk.ts';
import { allEnglish } from '../lib/i18n.tsx';
import { signedInEmailHint } from '../lib/session.tsx';
import { RequireAdmin } from './guards/require-admin.tsx';
import { RequireAuth } from './guards/require-auth.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import { PageBoundary, PageLoading } from './page-boundary.tsx';
import { HomePage } from './pages/home.tsx';
import { NotFoundPage } from './pages/not-found.tsx';

/** A page component; a lazy one can start loading its code before it renders. */
type Page = ComponentType & { preload?(): Promise<unknown> };
type PageRoute = { path: string; component: Page; access?: 'signed-in' | 'admin' };

/**
 * A component loaded on first use (or on preload()): `lazyNamed(() => import('./x.tsx'), 'X')`. When its code
 * has loaded before it first renders (preloadRoute), it renders at once instead of suspending: a Suspense
 * fallback, once shown, stays on screen at least 300 ms (React's reveal throttle), so the page would come late
 * behind a spinner for code that was already there.
 */
function lazyNamed<P extends object, K extends string>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  let loaded: ComponentType<P> | undefined;
  // With the page's code, the rest of its English words (lib/i18n.tsx): a page renders in full or not at all.
  const preload = () =>
    Promise.all([load(), allEnglish()]).then(([module]) => {
      loaded = module[name];
      return module;
    });
  const Lazy = lazy(async () => ({ default: (await preload())[name] as ComponentType<P> })) as ComponentType<P>;
  // biome-ignore lint/correctness/noComponentHookFactories: made once per page at module level, as React.lazy makes its own.
  function LazyComponent(props: P) {
    // Fixed for the instance's life: switching from Lazy to the loaded component would remount the page.
    const [Component] = useState(() => loaded ?? Lazy);
    return createElement(Component, props);
  }
  return Object.assign(LazyComponent, { preload });
}

/**
 * The route table (docs/product.md#routes). The landing page is bundled eagerly (it is prerendered and hydrated);
 * every other page is lazy-loaded, and `access` puts it behind the signed-in or the admin guard.
 */
export const publicRoutes: PageRoute[] = [
  { path: '/', component: HomePage },
  { path: '/login', component: lazyNamed(() => import('../features/auth/components/login-page.tsx'), 'LoginPage') },
  { path: '/signup', component: lazyNamed(() => import('../features/auth/components/signup-page.tsx'), 'SignUpPage') },
  {
    // Free times for everyone: an account only at the end, to confirm.
    path: '/book',
    component: lazyNamed(() => import('../features/appointments/components/book-page.tsx'), 'BookPage'),
  },
  { path: '/privacy', component: lazyNamed(() => import('./pages/privacy.tsx'), 'PrivacyPage') },
  {
    path: '/appointment',
    component: lazyNamed(() => import('./pages/appointment-page.tsx'), 'AppointmentPage'),
    access: 'signed-in',
  },
  {
    path: '/offers/:id',
    component: lazyNamed(() => import('../features/waitlist/components/offer-page.tsx'), 'OfferPage'),
    access: 'signed-in',
  },
  {
    // A link in a message (a reminder's answers, a recall's times): no sign-in, the token is the key.
    path: '/l/:token',
    component: lazyNamed(() => import('./pages/link-route.tsx'), 'LinkRoute'),
  },
  {
    // For the clinic's neighbours' developers: the API as OpenAPI; its code loads only here.
    path: '/developers',
    component: lazyNamed(() => import('../features/developers/api-page.tsx'), 'ApiPage'),
  },
  {
    path: '/review',
    component: lazyNamed(() => import('../features/reviews/components/review-page.tsx'), 'ReviewPage'),
    access: 'signed-in',
  },
];

export const dashboardRoutes: PageRoute[] = [
  {
    path: '/dashboard',
    component: lazyNamed(() => import('./pages/my-appointments-page.tsx'), 'MyAppointmentsPage'),
    access: 'signed-in',
  },
  {
    path: '/dashboard/all-users',
    component: lazyNamed(() => import('../features/users/components/all-users-page.tsx'), 'AllUsersPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/add-doctors',
    component: lazyNamed(() => import('../features/doctors/components/add-doctor-page.tsx'), 'AddDoctorPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/manage-doctors',
    component: lazyNamed(() => import('./pages/manage-doctors-page.tsx'), 'ManageDoctorsPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/schedule',
    component: lazyNamed(() => import('./pages/schedule-page.tsx'), 'SchedulePage'),
    access: 'admin',
  },
  {
    path: '/dashboard/insights',
    component: lazyNamed(() => import('../features/insights/components/insights-page.tsx'), 'InsightsPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/treatments',
    component: lazyNamed(() => import('../features/clinic-setup/components/treatments-page.tsx'), 'TreatmentsPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/clinic-hours',
    component: lazyNamed(() => import('../features/clinic-setup/components/clinic-hours-page.tsx'), 'ClinicHoursPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/chairs',
    component: lazyNamed(() => import('../features/clinic-setup/components/chairs-page.tsx'), 'ChairsPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/specialties',
    component: lazyNamed(() => import('../features/clinic-setup/components/specialties-page.tsx'), 'SpecialtiesPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/recalls',
    component: lazyNamed(() => import('../features/recalls/components/recalls-page.tsx'), 'RecallsPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/refunds',
    component: lazyNamed(() => import('../features/refunds/components/refunds-due-page.tsx'), 'RefundsDuePage'),
    access: 'admin',
  },
  {
    path: '/dashboard/settings',
    component: lazyNamed(
      () => import('../features/clinic-settings/components/clinic-settings-page.tsx'),
      'ClinicSettingsPage',
    ),
    access: 'admin',
  },
  {
    path: '/dashboard/reviews',
    component: lazyNamed(() => import('../features/reviews/components/manage-reviews-page.tsx'), 'ManageReviewsPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/activity',
    component: lazyNamed(() => import('../features/audit/components/activity-page.tsx'), 'ActivityPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/payment/:id',
    component: lazyNamed(() => import('../features/payments/components/payment-page.tsx'), 'PaymentPage'),
    access: 'signed-in',
  },
  {
    path: '/dashboard/fees/:id',
    component: lazyNamed(() => import('../features/payments/components/fee-page.tsx'), 'FeePage'),
    access: 'signed-in',
  },
  {
    path: '/dashboard/form-templates',
    component: lazyNamed(() => import('../features/forms/components/form-templates-page.tsx'), 'FormTemplatesPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/forms/:id',
    component: lazyNamed(() => import('../features/forms/components/forms-page.tsx'), 'FormsPage'),
    access: 'signed-in',
  },
  {
    path: '/dashboard/receipt/:id',
    component: lazyNamed(() => import('../features/payments/components/receipt-page.tsx'), 'ReceiptPage'),
    access: 'signed-in',
  },
];

const DashboardLayout = lazyNamed(() => import('./layouts/dashboard-layout.tsx'), 'DashboardLayout');
const KioskPage = lazyNamed(() => import('../features/forms/components/kiosk-page.tsx'), 'KioskPage');

function renderRoute({ path, component: Page, access }: PageRoute) {
  return (
    <Route key={path} path={path}>
      {access === 'admin' ? (
        <RequireAdmin>
          <Page />
        </RequireAdmin>
      ) : access === 'signed-in' ? (
        <RequireAuth>
          <Page />
        </RequireAuth>
      ) : (
        <Page />
      )}
    </Route>
  );
}

const isDashboardPath = (path: string) => path === '/dashboard' || path.startsWith('/dashboard/');

/**
 * Loads the code the first render of `path` needs (the dashboard layout, and the page unless it is guarded and
 * nobody has signed in on this device), so that render shows the page rather than a spinner. The Worker
 * already sent these files with the shell (Link: rel=modulepreload), so this mostly waits for them to run.
 * Never rejects: a chunk that fails to load shows its error when the page renders.
 */
export async function preloadRoute(path: string): Promise<void> {
  const dashboard = isDashboardPath(path);
  const page = (dashboard ? dashboardRoutes : publicRoutes).find(
    (route) => matchRoute(parse, route.path, path)[0] && (!route.access || signedInEmailHint()),
  );
  await Promise.all([dashboard && DashboardLayout.preload(), page?.component.preload?.()]).catch(() => undefined);
}

export function AppRoutes() {
  const [location] = useLocation();
  const dashboard = isDashboardPath(location);
  // On a move within the app too, the page's code loads beside the layout's and whatever its guard waits for.
  useEffect(() => void preloadRoute(location), [location]);

  // A tablet handed to a patient (kiosk mode) shows the kiosk on every route but the sign-in page, which only
  // staff leave it through, without any menu.
  const kiosk = useKiosk();
  if (kiosk !== null && location !== '/login') {
    return (
      <PageBoundary>
        <KioskPage kiosk={kiosk} />
      </PageBoundary>
    );
  }

  if (dashboard) {
    return (
      // The layout's code: the page is live with its spinner (its own boundary has the page).
      <Suspense fallback={<PageLoading />}>
        <DashboardLayout>
          <Switch>
            {dashboardRoutes.map(renderRoute)}
            <Route component={NotFoundPage} />
          </Switch>
        </DashboardLayout>
      </Suspense>
    );
  }

  return (
    <PublicLayout>
      <Switch>
        {publicRoutes.map(renderRoute)}
        <Route component={NotFoundPage} />
      </Switch>
    </PublicLayout>
  );
}
