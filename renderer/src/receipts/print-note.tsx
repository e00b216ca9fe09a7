import type { PrintNote } from './print-receipt';

const CLASS = { ok: 'notice-ok', wait: 'notice-warn', error: 'notice-error' } as const;

/** "Printed." / "Waiting for the printer: out of paper …" / what went wrong, under a Print button. */
export function PrintNoteLine({ note }: { note: PrintNote | null }) {
  if (!note) return null;
  return (
    <p className={`notice print-note ${CLASS[note.tone]}`} role={note.tone === 'error' ? 'alert' : 'status'} data-testid="print-note">
      {note.text}
    </p>
  );
}
