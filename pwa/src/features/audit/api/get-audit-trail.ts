import useSWRInfinite from 'swr/infinite';
import type { AuditAction, AuditEntry, AuditPage } from '../../../../../contract/audit.ts';
import { apiFetcher } from '../../../lib/api.ts';
import { auditPageKey } from '../../../lib/cache-keys.ts';

export type { AuditAction, AuditEntry };

/** What the Activity page shows: one action ('' for all) by one actor (an email or user id; '' for anyone). */
export type AuditFilter = { type: AuditAction | ''; actor: string };

/**
 * GET /api/audit (admin), newest first, a page at a time: `loadMore` fetches the page after the
 * last one loaded (or, after a failure, tries again). Opening the page again reloads the first page.
 */
export function useAuditTrail(filter: AuditFilter) {
  const { data, error, size, setSize, mutate } = useSWRInfinite<AuditPage>(
    (_index, previous: AuditPage | null) =>
      previous && previous.nextCursor === null ? null : auditPageKey(filter, previous?.nextCursor ?? null),
    apiFetcher<AuditPage>,
    // Loading more fetches only the next page; the first is reloaded when the page opens.
    { revalidateFirstPage: false },
  );
  return {
    entries: data?.flatMap((page) => page.entries),
    error: error as unknown,
    hasMore: Boolean(data?.at(-1)?.nextCursor),
    loadingMore: data !== undefined && data.length < size && !error,
    // After a failed page, loading more tries the pages again.
    loadMore: () => (error ? mutate() : setSize((data?.length ?? 0) + 1)),
  };
}
