import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import { matchRoute, Route, Switch, useLocation, useRouter } from 'wouter';
import { Spinner } from '../components/spinner.tsx';
import { signedInEmailHint } from '../lib/session.tsx';
import { RequireAdmin } from './guards/require-admin.tsx';
import { RequireAuth } from './guards/require-auth.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import { HomePage } from './pages/home.tsx';
import { NotFoundPage } from './pages/not-found.tsx';

/** A page component; a lazy one can start loading its code before it renders. */
type Page = ComponentType & { preload?(): Promise<unknown> };
type PageRoute = { path: string; component: Page; access?: 'signed-in' | 'admin' };

/** A page component loaded on first use (or on preload()): `lazyPage(() => import('./x.tsx'), 'XPage')`. */
function lazyPage<M extends Record<K, ComponentType>, K extends keyof M & string>(load: () => Promise<M>, name: K) {
  return Object.assign(
    lazy(async () => ({ default: (await load())[name] })),
    { preload: load },
  );
}

/**
 * On a visit with a saved session (the hint), the guarded page's code starts loading at once, beside the
 * dashboard layout's code and whatever its guard still waits for, rather than after them.
 */
function usePreloadGuardedPage(routes: PageRoute[], location: string) {
  const { parser } = useRouter();
  useEffect(() => {
    if (!signedInEmailHint()) return;
    const page = routes.find((route) => route.access && matchRoute(parser, route.path, location)[0]);
    // A failure shows when the page itself renders.
    page?.component.preload?.().catch(() => undefined);
  }, [routes, location, parser]);
}

/**
 * The route table (docs/product.md#routes). The landing page is bundled eagerly (it is prerendered and hydrated);
 * every other page is lazy-loaded, and `access` puts it behind the signed-in or the admin guard.
 */
export const publicRoutes: PageRoute[] = [
  { path: '/', component: HomePage },
  { path: '/login', component: lazyPage(() => import('../features/auth/components/login-page.tsx'), 'LoginPage') },
  { path: '/signup', component: lazyPage(() => import('../features/auth/components/signup-page.tsx'), 'SignUpPage') },
  {
    path: '/appointment',
    component: lazyPage(() => import('../features/appointments/components/appointment-page.tsx'), 'AppointmentPage'),
    access: 'signed-in',
  },
  {
    path: '/offers/:id',
    component: lazyPage(() => import('../features/waitlist/components/offer-page.tsx'), 'OfferPage'),
    access: 'signed-in',
  },
  {
    path: '/review',
    component: lazyPage(() => import('../features/reviews/components/review-page.tsx'), 'ReviewPage'),
    access: 'signed-in',
  },
];

export const dashboardRoutes: PageRoute[] = [
  {
    path: '/dashboard',
    component: lazyPage(() => import('../features/bookings/components/my-appointments-page.tsx'), 'MyAppointmentsPage'),
    access: 'signed-in',
  },
  {
    path: '/dashboard/all-users',
    component: lazyPage(() => import('../features/users/components/all-users-page.tsx'), 'AllUsersPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/add-doctors',
    component: lazyPage(() => import('../features/doctors/components/add-doctor-page.tsx'), 'AddDoctorPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/manage-doctors',
    component: lazyPage(() => import('../features/doctors/components/manage-doctors-page.tsx'), 'ManageDoctorsPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/schedule',
    component: lazyPage(() => import('../features/schedule/components/schedule-page.tsx'), 'SchedulePage'),
    access: 'admin',
  },
  {
    path: '/dashboard/treatments',
    component: lazyPage(() => import('../features/schedule/components/treatments-page.tsx'), 'TreatmentsPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/clinic-hours',
    component: lazyPage(() => import('../features/schedule/components/clinic-hours-page.tsx'), 'ClinicHoursPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/chairs',
    component: lazyPage(() => import('../features/schedule/components/chairs-page.tsx'), 'ChairsPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/refunds',
    component: lazyPage(() => import('../features/refunds/components/refunds-due-page.tsx'), 'RefundsDuePage'),
    access: 'admin',
  },
  {
    path: '/dashboard/settings',
    component: lazyPage(
      () => import('../features/clinic-settings/components/clinic-settings-page.tsx'),
      'ClinicSettingsPage',
    ),
    access: 'admin',
  },
  {
    path: '/dashboard/reviews',
    component: lazyPage(() => import('../features/reviews/components/manage-reviews-page.tsx'), 'ManageReviewsPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/activity',
    component: lazyPage(() => import('../features/audit/components/activity-page.tsx'), 'ActivityPage'),
    access: 'admin',
  },
  {
    path: '/dashboard/payment/:id',
    component: lazyPage(() => import('../features/payments/components/payment-page.tsx'), 'PaymentPage'),
    access: 'signed-in',
  },
  {
    path: '/dashboard/receipt/:id',
    component: lazyPage(() => import('../features/payments/components/receipt-page.tsx'), 'ReceiptPage'),
    access: 'signed-in',
  },
];

const DashboardLayout = lazy(() =>
  import('./layouts/dashboard-layout.tsx').then((m) => ({ default: m.DashboardLayout })),
);

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

export function AppRoutes() {
  const [location] = useLocation();
  const dashboard = isDashboardPath(location);
  usePreloadGuardedPage(dashboard ? dashboardRoutes : publicRoutes, location);

  if (dashboard) {
    return (
      <Suspense fallback={<Spinner label="Loading page" />}>
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
