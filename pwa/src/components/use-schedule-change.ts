import { type RefObject, useState } from 'react';
import type { StrandDryRun, StrandedBooking, WithdrawnOffer } from '../../../contract/bookings.ts';
import { errorText, logUnexpected } from '../lib/error-text.ts';
import { ApiError } from '../lib/http.ts';
import { notify } from '../lib/notify.ts';

export type { StrandedBooking, WithdrawnOffer };

/** What a change made anyway left for the front desk: the bookings it kept or cancelled, the waitlist offers it withdrew. */
export type KeptAfterChange = {
  stranded: readonly StrandedBooking[];
  cancelled: readonly StrandedBooking[];
  withdrawnOffers: readonly WithdrawnOffer[];
};

/** The upcoming bookings a refused schedule change would strand (its 409 answer lists them), else null. */
export function strandedBy(error: unknown): StrandedBooking[] | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const { body } = error;
  return body && typeof body === 'object' && 'stranded' in body && Array.isArray(body.stranded)
    ? (body.stranded as StrandedBooking[])
    : null;
}

/** What the stranded-bookings dialog and notice show of a change, whatever its arguments. */
export type StrandedView = {
  busy: boolean;
  /** The bookings the refused change would strand, until confirmed anyway or cancelled. */
  conflict: { stranded: readonly StrandedBooking[] } | null;
  /** What the last change kept (bookings) and withdrew (offers), until dismissed. */
  kept: KeptAfterChange | null;
  confirmAnyway(): Promise<boolean>;
  /** Where the change can cancel the bookings instead of keeping them (a closure): does so. */
  cancelThemInstead?: () => Promise<boolean>;
  cancel(): void;
  dismissKept(): void;
};

export type ScheduleChange<Args> = StrandedView & {
  conflict: { args: Args; stranded: StrandedBooking[] } | null;
  /** Tries the change; resolves true once it is made. */
  submit(args: Args): Promise<boolean>;
};

/**
 * What becomes of the bookings a change strands: asked first (a dry run that changes nothing),
 * refused (nothing), kept for review, or (a closure) cancelled.
 */
export type Resolution = 'ask' | 'refuse' | 'keep' | 'cancel';

/** The query of a change's request: `dryRun=1` when asking, `force=true` to keep (for a DELETE, whose force is a query). */
export function changeQuery(resolution: Resolution, { forceInQuery = false } = {}): { dryRun?: '1'; force?: 'true' } {
  if (resolution === 'ask') return { dryRun: '1' };
  return forceInQuery && resolution === 'keep' ? { force: 'true' } : {};
}

type Options<Args> = {
  /**
   * Makes the change; 'keep' even when it strands upcoming bookings (the server keeps them and lists
   * them), 'cancel' cancelling them instead (where `canCancel`).
   */
  run(
    args: Args,
    resolution: Resolution,
  ): Promise<
    { stranded: StrandedBooking[]; cancelled?: StrandedBooking[]; withdrawnOffers?: WithdrawnOffer[] } | StrandDryRun
  >;
  /** The change can cancel the bookings it strands instead of keeping them. */
  canCancel?: boolean;
  /** The success toast. */
  successText(args: Args): string;
  /** Called once the change is made (say, to empty the form). */
  onDone?(args: Args): void;
  /** Focused after a success (say, the heading, when the row whose button started it is gone). */
  focusAfter?: RefObject<HTMLElement | null>;
};

/**
 * A schedule change that the server may refuse because it would strand upcoming bookings
 * (docs/product-admin.md#schedule-changes-that-affect-bookings): `submit(args)` asks first with a dry run
 * (nothing is sent to be refused) and makes it when it strands nothing; with such a list (or refused
 * with one, a booking made meanwhile), `conflict` holds it (render a StrandedConflictDialog) until `confirmAnyway()`
 * resends it keeping them (`cancelThemInstead()`, where offered, cancelling them) or `cancel()` drops it. Once made: a success toast, and `kept` lists the
 * bookings kept for the front desk and the waitlist offers withdrawn (render KeptBookingsNotice). Any other failure: an error toast.
 */
export function useScheduleChange<Args>({
  run,
  canCancel = false,
  successText,
  onDone,
  focusAfter,
}: Options<Args>): ScheduleChange<Args> {
  const [conflict, setConflict] = useState<{ args: Args; stranded: StrandedBooking[] } | null>(null);
  const [kept, setKept] = useState<KeptAfterChange | null>(null);
  const [busy, setBusy] = useState(false);

  async function attempt(args: Args, resolution: Exclude<Resolution, 'ask'>): Promise<boolean> {
    setBusy(true);
    try {
      if (resolution === 'refuse') {
        // Ask first: a change that would strand bookings is shown, not sent to be refused.
        const asked = await run(args, 'ask');
        if ('dryRun' in asked && asked.stranded.length > 0) {
          setConflict({ args, stranded: asked.stranded });
          return false;
        }
      }
      const made = await run(args, resolution);
      if ('dryRun' in made) throw new Error('The server answered a dry run to a change');
      const { stranded, cancelled = [], withdrawnOffers = [] } = made;
      notify.success(successText(args));
      setConflict(null);
      setKept(
        stranded.length + cancelled.length + withdrawnOffers.length > 0
          ? { stranded, cancelled, withdrawnOffers }
          : null,
      );
      onDone?.(args);
      focusAfter?.current?.focus();
      return true;
    } catch (cause) {
      const stranded = resolution === 'refuse' ? strandedBy(cause) : null;
      setConflict(stranded && { args, stranded });
      if (!stranded) {
        logUnexpected(cause);
        notify.error(errorText(cause));
      }
      return false;
    } finally {
      setBusy(false);
    }
  }

  return {
    busy,
    conflict,
    kept,
    submit: (args: Args) => attempt(args, 'refuse'),
    confirmAnyway: () => (conflict ? attempt(conflict.args, 'keep') : Promise.resolve(false)),
    ...(canCancel
      ? { cancelThemInstead: () => (conflict ? attempt(conflict.args, 'cancel') : Promise.resolve(false)) }
      : {}),
    cancel: () => setConflict(null),
    dismissKept: () => setKept(null),
  };
}
