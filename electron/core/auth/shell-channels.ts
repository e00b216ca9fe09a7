/**
 * The channels every window needs, whoever is signed in and before anyone is: the app's
 * status, the gateway check, the users to sign in as, signing in and out, one's own PIN,
 * activity (the idle lock), and what the shell reads for every user (the store settings, the
 * offline queue's counts). The scopes that close everything else start from these: an
 * installer's (installer-scope.ts) and a copied data folder's (register-copy-guard.ts).
 */
import type { Channel } from '../../../shared/ipc/contract';

export const SHELL_CHANNELS: readonly Channel[] = [
  'core:status',
  'gateway:check',
  'auth:users',
  'auth:session',
  'auth:sign-in',
  'auth:sign-out',
  'auth:change-pin',
  'auth:activity',
  'settings:get',
  'queue:status',
];
