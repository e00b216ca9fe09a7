/**
 * What every device editor on the Devices screen (terminal, check scanner, barcode scanner,
 * receipt printer) does the same way: a fresh form when another device is chosen — except for
 * the one just saved, which keeps its "Saved." line — and labelled fields whose error is tied to
 * the input for a screen reader.
 */
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * Calls `reset` when the editor switches to another device (`deviceId`). Answers the flag to set
 * when a save gives the device a new id, so that switch keeps the form as it is.
 */
export function useFreshFormPerDevice(deviceId: string | undefined, reset: () => void) {
  const justSaved = useRef(false);
  useEffect(() => {
    if (justSaved.current) {
      justSaved.current = false;
      return;
    }
    reset();
    // `reset` is a new function each render; only a change of device resets the form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [deviceId]);
  return justSaved;
}

/** A form check's first message for each field, by its path (address.host, timeouts.pin …). */
export function issuesByField(r: { success: true } | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } }): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!r.success) for (const i of r.error.issues) errors[i.path.map(String).join('.')] ??= i.message;
  return errors;
}

/** An input's id and error wiring (`prefix` keeps the editors' ids apart), a field around it, and a field's error alone. */
export function editorFields(prefix: string, err: (k: string) => string | undefined) {
  const attrs = (k: string) => ({ id: `${prefix}-${k}`, className: 'input', 'aria-invalid': err(k) ? true : undefined, 'aria-describedby': err(k) ? `${prefix}-${k}-error` : undefined });
  const field = (k: string, label: string, input: ReactNode, hint?: string) => (
    <div className="field">
      <label htmlFor={`${prefix}-${k}`}>{label}</label>
      {input}
      {hint && !err(k) && <span className="field-hint muted">{hint}</span>}
      {err(k) && (
        <p className="field-error" id={`${prefix}-${k}-error`}>
          {err(k)}
        </p>
      )}
    </div>
  );
  const errorText = (k: string) =>
    err(k) && (
      <p className="field-error" id={`${prefix}-${k}-error`}>
        {err(k)}
      </p>
    );
  return { attrs, field, errorText };
}
