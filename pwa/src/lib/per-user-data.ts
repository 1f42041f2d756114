// Per-user data kept in the browser beyond the SWR cache (e.g. the saved bookings in IndexedDB)
// registers its cleanup here; sign-out runs every cleanup so the next user sees none of it.

/** Who is signing out: the email of the session that ends (null when it is not known). */
export type SignedOutUser = { email: string | null };

type Cleanup = (user: SignedOutUser) => void | Promise<void>;

const cleanups = new Set<Cleanup>();

/** Registers a cleanup to run on sign-out; returns a function that unregisters it. */
export function onSignOutClearPerUserData(cleanup: Cleanup): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** Runs every registered cleanup for `user`; a failing one is logged and does not stop the others. */
export async function clearPerUserData(user: SignedOutUser): Promise<void> {
  await Promise.all(
    [...cleanups].map(async (cleanup) => {
      try {
        await cleanup(user);
      } catch (cause) {
        console.error(cause);
      }
    }),
  );
}
