/** The `auth:*` channels: counter users, PIN sign-in and the session. */
import { z } from 'zod';
import { idSchema, pinSchema } from './common';
import { audits, type ChannelDeclarations } from './channel-declaration';

export { roleSchema, type Role } from './roles';
import type { Role } from './roles';

export interface PosUser {
  id: string;
  name: string;
  role: Role;
}

export interface SignInInfo {
  users: PosUser[];
  /** True while a seeded user still has its documented default PIN: the sign-in screen shows the hint. */
  defaultPinsActive: boolean;
}

export interface Session {
  user: PosUser;
  /** Unix milliseconds. */
  signedInAt: number;
}

export const signInArgsSchema = z.strictObject({
  userId: idSchema,
  pin: pinSchema,
});

/** The signed-in user changes their own PIN. */
export const changePinArgsSchema = z
  .strictObject({ currentPin: pinSchema, newPin: pinSchema })
  .refine((a) => a.currentPin !== a.newPin, { message: 'The new PIN must differ from the current one.', path: ['newPin'] });

export const authHandlers = {
  'auth:users': { args: z.void(), access: 'before-sign-in', effect: 'read', audit: 'none', copiedFolder: 'answers' },
  'auth:session': { args: z.void(), access: 'before-sign-in', effect: 'read', audit: 'none', copiedFolder: 'answers' },
  'auth:sign-in': { args: signInArgsSchema, access: 'before-sign-in', effect: 'session', audit: audits(['sign-in'], []), copiedFolder: 'answers' },
  'auth:sign-out': { args: z.void(), access: 'before-sign-in', effect: 'session', audit: audits(['sign-out'], []), copiedFolder: 'answers' },
  'auth:change-pin': { args: changePinArgsSchema, access: 'signed-in', effect: 'session', audit: audits(['pin-change'], []), copiedFolder: 'answers' },
  /** The person at this window touched a key or the screen: the idle lock starts over. */
  'auth:activity': { args: z.void(), access: 'before-sign-in', effect: 'transient', audit: 'none', copiedFolder: 'answers' },
} as const satisfies ChannelDeclarations;

export interface AuthResults {
  'auth:users': SignInInfo;
  'auth:session': Session | null;
  'auth:sign-in': Session;
  'auth:sign-out': null;
  'auth:change-pin': null;
  'auth:activity': null;
}

export interface AuthLock {
  reason: 'idle';
  /** How long the window was left alone, in seconds. */
  idleSeconds: number;
}

export interface AuthEventPayloads {
  /** Who is signed in at this window changed (sent to that window only: each window signs in on its own). */
  'auth:session': Session | null;
  /** This window was locked back to the sign-in screen (sent to that window only). */
  'auth:locked': AuthLock;
  /** A manager added, removed or re-roled a counter user: every window's sign-in screen follows. */
  'auth:users-changed': PosUser[];
}
export const authEventNames = ['auth:session', 'auth:locked', 'auth:users-changed'] as const;
