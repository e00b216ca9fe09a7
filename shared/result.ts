/**
 * The one shape every IPC handler answers with. Errors are data, never thrown
 * across the process boundary, so the renderer can always show a plain message.
 */
export interface AppError {
  /** Stable machine-readable code, e.g. `bad_request`, `forbidden`, `gateway_unreachable`. */
  code: string;
  /** A sentence a person can read. Never a stack trace or raw JSON. */
  message: string;
  /** Per-field messages for forms. */
  fields?: Record<string, string[]>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: string, message: string, fields?: Record<string, string[]>): Result<never> => ({
  ok: false,
  error: fields ? { code, message, fields } : { code, message },
});
