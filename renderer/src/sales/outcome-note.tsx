/** The answer to a form's action, read out when it appears: a status when it went well, an alert when not. */
export interface Outcome {
  ok: boolean;
  text: string;
}

export function OutcomeNote({ note }: { note: Outcome | null }) {
  if (!note) return null;
  return (
    <p className={`notice ${note.ok ? 'notice-ok' : 'notice-error'}`} role={note.ok ? 'status' : 'alert'}>
      {note.text}
    </p>
  );
}

/** A form's error sentence, read out as an alert; nothing when there is none. */
export function ErrorNote({ text }: { text: string | null | undefined }) {
  return text ? <OutcomeNote note={{ ok: false, text }} /> : null;
}
