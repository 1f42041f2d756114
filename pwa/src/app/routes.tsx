import type { ComponentType } from 'react';
import { Route, Switch } from 'wouter';
import { HomePage } from './pages/home.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import { NotFoundPage } from './pages/not-found.tsx';

type PageRoute = { path: string; component: ComponentType };

/**
 * The route table. The landing page is bundled eagerly (it is prerendered and hydrated);
 * every other page is one line here, lazy-loaded:
 *   { path: '/login', component: lazy(() => import('../features/auth/components/login-page.tsx')) },
 */
export const publicRoutes: PageRoute[] = [{ path: '/', component: HomePage }];

export function AppRoutes() {
  return (
    <PublicLayout>
      <Switch>
        {publicRoutes.map(({ path, component }) => (
          <Route key={path} path={path} component={component} />
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </PublicLayout>
  );
}
