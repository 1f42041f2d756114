import { Router } from 'wouter';
import { AppProvider } from './provider.tsx';
import { AppRoutes } from './routes.tsx';

/** `ssrPath` is set only by the build-time prerender; in the browser the router reads the URL. */
export function App({ ssrPath }: { ssrPath?: string }) {
  return (
    <AppProvider>
      <Router ssrPath={ssrPath}>
        <AppRoutes />
      </Router>
    </AppProvider>
  );
}
