// Per-user data kept in the browser beyond the SWR cache (e.g. the saved bookings in IndexedDB that a
// later issue adds) registers its cleanup here; sign-out runs every cleanup so the next user sees none of it.

type Cleanup = () => void | Promise<void>;

const cleanups = new Set<Cleanup>();

/** Registers a cleanup to run on sign-out; returns a function that unregisters it. */
export function onSignOutClearPerUserData(cleanup: Cleanup): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** Runs every registered cleanup; a failing one is logged and does not stop the others. */
export async function clearPerUserData(): Promise<void> {
  await Promise.all(
    [...cleanups].map(async (cleanup) => {
      try {
        await cleanup();
      } catch (cause) {
        console.error(cause);
      }
    }),
  );
}
