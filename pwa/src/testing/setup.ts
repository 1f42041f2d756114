import { cleanup } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // sonner keeps toasts in a module-level store; start every test with none.
  toast.dismiss();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});
