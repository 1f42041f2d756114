import { Router } from 'wouter';
import { AppProvider } from './provider.tsx';
import { AppRoutes } from './routes.tsx';

/**
 * `ssrPath` is set only by the build-time prerender; in the browser the router reads the URL. `fromSavedSession`:
 * the first render may know who is signed in from this device (not when hydrating the prerendered landing page).
 */
export function App({ ssrPath, fromSavedSession }: { ssrPath?: string; fromSavedSession?: boolean }) {
  return (
    <AppProvider fromSavedSession={fromSavedSession}>
      <Router ssrPath={ssrPath}>
        <AppRoutes />
      </Router>
    </AppProvider>
  );
}
