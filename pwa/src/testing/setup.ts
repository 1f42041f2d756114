import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { Dexie } from 'dexie';
import { toast } from 'sonner';
import { afterEach, vi } from 'vitest';
import { resetConnection } from '../lib/connection.ts';
import { closeClinicDb, DB_NAME } from '../lib/db.ts';
import { sharedOutbox } from '../lib/outbox.ts';
import { fakeFirebase } from './fake-firebase.ts';

// Lazy pages load their chunk through Vite's transform on first use; on a loaded 2-core machine that
// alone can take more than Testing Library's default 1 s, so findBy* and waitFor wait up to 10 s (one
// bound for every test: none sets its own).
configure({ asyncUtilTimeout: 10_000 });

// happy-dom has no HTMLSelectElement.size and no HTMLOptionElement.defaultSelected; react-hook-form reads
// them to tell a select the user changed before the form was ready (keep its value) from one it should
// set to the form's default. Without them every select keeps its first option, which no browser does.
if (!('size' in HTMLSelectElement.prototype)) {
  Object.defineProperty(HTMLSelectElement.prototype, 'size', {
    configurable: true,
    get(this: HTMLSelectElement) {
      return Number(this.getAttribute('size') ?? 0);
    },
  });
}
if (!('defaultSelected' in HTMLOptionElement.prototype)) {
  Object.defineProperty(HTMLOptionElement.prototype, 'defaultSelected', {
    configurable: true,
    get(this: HTMLOptionElement) {
      return this.hasAttribute('selected');
    },
    set(this: HTMLOptionElement, selected: boolean) {
      this.toggleAttribute('selected', selected);
    },
  });
}

// Firebase is faked at the app's one boundary to it (src/lib/firebase.ts) in every test.
vi.mock('../lib/firebase.ts', () => import('./fake-firebase.ts'));

afterEach(async () => {
  cleanup();
  // sonner keeps toasts in a module-level store; start every test with none.
  toast.dismiss();
  localStorage.clear();
  fakeFirebase.reset();
  window.history.replaceState(null, '', '/');
  // IndexedDB (fake-indexeddb, in memory): every test starts with an empty database.
  sharedOutbox().stop();
  // What the app knew about its connection (connection.ts): nothing, with no probe pending.
  resetConnection();
  closeClinicDb();
  await Dexie.delete(DB_NAME);
});
