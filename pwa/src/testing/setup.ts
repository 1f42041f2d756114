import { cleanup } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, vi } from 'vitest';
import { fakeFirebase } from './fake-firebase.ts';

// Firebase is faked at the app's one boundary to it (src/lib/firebase.ts) in every test.
vi.mock('../lib/firebase.ts', () => import('./fake-firebase.ts'));

afterEach(() => {
  cleanup();
  // sonner keeps toasts in a module-level store; start every test with none.
  toast.dismiss();
  localStorage.clear();
  fakeFirebase.reset();
  window.history.replaceState(null, '', '/');
});
