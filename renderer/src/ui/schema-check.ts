/** The first message a shared zod schema gives for a value, or null: forms check as you type with the core's own rules. */
import type { z } from 'zod';

export function schemaError(schema: z.ZodType, value: unknown): string | null {
  const r = schema.safeParse(value);
  return r.success ? null : (r.error.issues[0]?.message ?? 'Check this field.');
}
