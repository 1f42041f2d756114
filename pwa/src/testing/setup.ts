import 'fake-indexeddb/auto';
import { cleanup } from '@testing-library/react';
import { Dexie } from 'dexie';
import { toast } from 'sonner';
import { afterEach, vi } from 'vitest';
import { closeClinicDb, DB_NAME } from '../lib/db.ts';
import { sharedOutbox } from '../lib/outbox.ts';
import { fakeFirebase } from './fake-firebase.ts';

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
  closeClinicDb();
  await Dexie.delete(DB_NAME);
});
