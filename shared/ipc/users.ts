/**
 * The `users:*` channels: managers keep the counter's users (add, remove, change the
 * role, reset a PIN). Signing in stays in `auth:*`.
 */
import { z } from 'zod';
import { idSchema, pinSchema } from './common';
import { roleSchema, type Role } from './auth';
import { MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

export const USERS_MESSAGES = {
  nameBlank: 'Enter a name.',
  nameTooLong: 'A name has at most 32 characters.',
  nameTaken: 'Another counter user already has this name.',
  notFound: 'This user does not exist any more.',
  notYourself: 'You cannot remove yourself or change your own role. Ask another manager.',
} as const;

export const counterUserNameSchema = z.string().trim().min(1, USERS_MESSAGES.nameBlank).max(32, USERS_MESSAGES.nameTooLong);

export interface CounterUser {
  id: string;
  name: string;
  role: Role;
  /** Locked out by wrong PINs right now (a PIN reset unlocks). */
  locked: boolean;
}

export const usersHandlers = {
  'users:list': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none' },
  'users:add': { args: z.strictObject({ name: counterUserNameSchema, role: roleSchema, pin: pinSchema }), access: MANAGER, effect: 'users', audit: audits(['user-change'], ['detail']) },
  'users:set-role': { args: z.strictObject({ id: idSchema, role: roleSchema }), access: MANAGER, effect: 'users', audit: audits(['user-change'], ['detail']) },
  'users:reset-pin': { args: z.strictObject({ id: idSchema, pin: pinSchema }), access: MANAGER, effect: 'users', audit: audits(['user-change'], ['detail']) },
  'users:remove': { args: z.strictObject({ id: idSchema }), access: MANAGER, effect: 'users', audit: audits(['user-change'], ['detail']) },
} as const satisfies ChannelDeclarations;

/** Every change answers the list as it now stands. */
export interface UsersResults {
  'users:list': CounterUser[];
  'users:add': CounterUser[];
  'users:set-role': CounterUser[];
  'users:reset-pin': CounterUser[];
  'users:remove': CounterUser[];
}
