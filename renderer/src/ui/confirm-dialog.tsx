import { useEffect, useRef, type ReactNode } from 'react';
import { isTopmostModal } from './topmost-modal';
import { useFocusTrap } from './use-focus-trap';
import { ErrorNote } from '../sales/outcome-note';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The safe answer's words (default "Cancel"; say "Keep the sale" where Cancel would read as the other answer). */
  cancelLabel?: string;
  danger?: boolean;
  busy?: boolean;
  error?: string | null;
  onConfirm(): void;
  onCancel(): void;
}

/** A modal question with one safe default: Cancel has the focus, Esc cancels. */
export function ConfirmDialog({ title, children, confirmLabel, cancelLabel = 'Cancel', danger, busy, error, onConfirm, onCancel }: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  useFocusTrap(dialogRef);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    cancelRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && isTopmostModal(dialogRef.current)) {
        e.stopPropagation();
        onCancel();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      previous?.focus?.();
    };
  }, [onCancel]);
  return (
    <div className="overlay">
      <div ref={dialogRef} className="dialog" role="alertdialog" aria-modal="true" aria-labelledby="confirm-title" aria-describedby="confirm-body">
        <h2 id="confirm-title">{title}</h2>
        <div id="confirm-body" className="dialog-body">
          {children}
        </div>
        <ErrorNote text={error} />
        <div className="dialog-actions">
          <button ref={cancelRef} type="button" className="btn btn-secondary btn-lg" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </button>
          <button type="button" className={`btn btn-lg ${danger ? 'btn-danger' : 'btn-primary'}`} onClick={onConfirm} disabled={busy}>
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
