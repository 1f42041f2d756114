import { type ReactNode, useId, useRef } from 'react';
import { Modal } from './modal.tsx';

type ConfirmDialogProps = {
  /** The question that names the dialog, e.g. 'Delete Jane Doe?'. */
  title: string;
  /** What happens when confirmed. */
  children: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** While the confirmed action runs: both buttons disabled and Escape ignored. */
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
  /** A second way to go ahead (say, "Cancel them and tell the patients" beside "Keep them for review"). */
  alternative?: { label: string; onChoose(): void };
};

/** Asks before a destructive action. Focus starts on Cancel, the safe choice. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  busy = false,
  onConfirm,
  onCancel,
  alternative,
}: ConfirmDialogProps) {
  const titleId = useId();
  const textId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const cancel = () => {
    if (!busy) onCancel();
  };

  return (
    <Modal labelledBy={titleId} describedBy={textId} onClose={cancel} initialFocus={cancelRef}>
      <h2 id={titleId} className="modal__title">
        {title}
      </h2>
      <div id={textId} className="modal__text">
        {children}
      </div>
      <div className="modal__actions">
        <button type="button" className="button button--danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
        {alternative && (
          <button type="button" className="button button--danger" onClick={alternative.onChoose} disabled={busy}>
            {alternative.label}
          </button>
        )}
        <button ref={cancelRef} type="button" className="button" onClick={cancel} disabled={busy}>
          {cancelLabel}
        </button>
      </div>
    </Modal>
  );
}
