import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

type ModalProps = {
  /** id of the element that names the dialog (its title). */
  labelledBy: string;
  describedBy?: string;
  /** Escape and a click on the backdrop call this. */
  onClose(): void;
  /** Receives focus on open; else the first focusable element inside. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** A dialog with two columns on a desktop (the front desk's phone booking). */
  wide?: boolean;
  children: ReactNode;
};

/**
 * An accessible modal dialog: focus moves in on open and is kept inside (Tab wraps around),
 * Escape closes, and focus returns to whatever opened it.
 */
export function Modal({ labelledBy, describedBy, onClose, initialFocus, wide = false, children }: ModalProps) {
  const dialogRef = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per opening; re-running when the caller's ref changes would pull focus back mid-dialog.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    if (dialog) (initialFocus?.current ?? dialog.querySelector<HTMLElement>(FOCUSABLE) ?? dialog).focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialogRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/noNoninteractiveElementInteractions: a pointer press on the backdrop is a shortcut for the mouse; keyboard users close with Escape.
    <div
      className="modal"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      {/* biome-ignore lint/a11y/noNoninteractiveElementInteractions: the dialog itself handles Escape and traps Tab, as the WAI-ARIA dialog pattern asks. */}
      <div
        ref={dialogRef}
        className={wide ? 'modal__box modal__box--wide' : 'modal__box'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={handleKeyDown}
      >
        {children}
      </div>
    </div>,
    document.body,
  );
}
