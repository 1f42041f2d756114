import { type RefObject, useState } from 'react';
import { errorText, logUnexpected } from '../lib/error-text.ts';
import { notify } from '../lib/notify.ts';

type Options<Row, Result> = {
  /** The action, once confirmed (say, delete the row's record); it resolves when the list is current again. */
  run(row: Row): Promise<Result>;
  /** The success toast, which may say what the server answered. */
  successText(row: Row, result: Result): string;
  /** Focused after a success: the row whose button opened the dialog is gone. */
  focusAfter: RefObject<HTMLElement | null>;
};

/**
 * The confirm-then-act flow of a row's action: `ask(row)` opens the confirmation (render a
 * ConfirmDialog while `pending` is set), `confirm()` runs the action with `busy` set, then closes the
 * dialog with a success toast or the error's message in an error toast (the failure is logged too).
 */
export function useConfirmedAction<Row, Result = unknown>({ run, successText, focusAfter }: Options<Row, Result>) {
  const [pending, setPending] = useState<Row | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (pending === null) return;
    setBusy(true);
    try {
      const result = await run(pending);
      notify.success(successText(pending, result));
      setPending(null);
      focusAfter.current?.focus();
    } catch (cause) {
      logUnexpected(cause);
      notify.error(errorText(cause));
      setPending(null);
    } finally {
      setBusy(false);
    }
  }

  return { pending, busy, ask: setPending, cancel: () => setPending(null), confirm };
}
