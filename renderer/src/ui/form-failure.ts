/**
 * A refused form: its field messages go beside their fields, and the general message only
 * when some field message has no field on the form to show it (or none came). So the
 * dispatcher's generic "The request was not in the expected form." never stands under
 * field messages that already say what is wrong, and nothing the core said is lost.
 */
export interface FormError {
  message: string;
  fields?: Record<string, string[]>;
}

/** The general sentence to show beside a form that shows messages for `shown` fields; null when the fields say it all. */
export function generalMessage(error: FormError, shown: readonly string[]): string | null {
  const withMessages = Object.entries(error.fields ?? {}).filter(([, messages]) => messages.length > 0);
  if (withMessages.length === 0) return error.message;
  return withMessages.every(([field]) => shown.includes(field)) ? null : error.message;
}
