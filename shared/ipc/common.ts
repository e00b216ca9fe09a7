/** Schemas every IPC domain uses: ids, PINs and amounts in integer cents. */
import { z } from 'zod';

export const idSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/, 'Use letters, digits, dot, colon, dash or underscore.');

export const pinSchema = z.string().regex(/^\d{4,8}$/, 'A PIN is 4 to 8 digits.');

/** A manager's PIN typed at a cashier's counter to approve one step (a large discount, a cart return). */
export const approvalSchema = z.strictObject({ managerId: idSchema, pin: pinSchema });
export type Approval = z.infer<typeof approvalSchema>;

/** Largest amount one sale may carry, in cents ($999,999.99). */
export const MAX_AMOUNT_CENTS = 99_999_999;
export const centsSchema = z.number().int().min(0).max(MAX_AMOUNT_CENTS);
