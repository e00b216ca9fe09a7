/**
 * The counter's roles, declared once. In a file of its own because the channel declarations
 * (channel-declaration.ts) name roles and auth.ts declares its channels with them.
 */
import { z } from 'zod';

export const roleSchema = z.enum(['cashier', 'manager', 'installer']);
export type Role = z.infer<typeof roleSchema>;
