/**
 * What one IPC channel declares beside its argument schema (issue 22, point 1): who may call
 * it, what it does, and what it writes to the audit log. Each `shared/ipc/<domain>.ts` holds one
 * declaration per channel; `contract.ts` merges them and derives the argument schemas, the
 * access map and the audit map. The core enforces them in one place, for every transport
 * (electron/ipc/channel-rules.ts): the role before the handler runs, the audit record after it
 * succeeded. A handler keeps only the rules beyond the role (a cashier's refund needs a
 * manager's PIN, a manager cannot remove themselves …).
 *
 * Why the effect is declared too: it is what the generated test (test/unit/channel-rules.test.ts)
 * reads to demand an audit kind from every channel that moves money or changes what a manager
 * answers for (settings, users, devices, the catalogue, keys, saved cards, recurrings), so a new
 * channel cannot forget one.
 */
import type { z } from 'zod';
import type { AuditKind } from './audit-kinds';
import type { Role } from './roles';

/**
 * Who may call a channel:
 * - `before-sign-in`: anyone, signed in or not (the app's status, the users to sign in as, signing in);
 * - `signed-in`: any signed-in user, whatever the role (the store settings the shell reads);
 * - a list of roles: only those (`MANAGER`, `COUNTER`, `SETUP` below).
 */
export type ChannelAccess = 'before-sign-in' | 'signed-in' | readonly Role[];

/** Managers only. */
export const MANAGER = ['manager'] as const satisfies readonly Role[];
/** The counter's roles: those who take and give back money (an installer only sets devices up). */
export const COUNTER = ['manager', 'cashier'] as const satisfies readonly Role[];
/** Who sets devices up. */
export const SETUP = ['installer', 'manager'] as const satisfies readonly Role[];

/**
 * What a call does, in one word:
 * - `read`: reads, changes nothing;
 * - `transient`: changes nothing that lasts (a ping, a connection test, a wait cancelled, a check scanned);
 * - `session`: who is signed in at this window, or their own PIN;
 * - `cart`: edits the sale in progress, no money moves and nothing is given away;
 * - `discount`: gives something away (a discount, a comp) or approves one;
 * - `money`: takes money or gives it back (sale, tender, refund, void, tip, queued sales sent);
 * - `close`: closes a period (settle a batch, the Z report);
 * - `records`: changes a record's details or sends one (Level 3, a receipt, a pay link, a queued sale's customer);
 * - `settings`, `users`, `devices`, `catalogue`, `keys`, `vault` (saved cards and customers), `recurring`:
 *   changes what the name says.
 */
export type ChannelEffect = 'read' | 'transient' | 'session' | 'cart' | 'discount' | 'money' | 'close' | 'records' | 'settings' | 'users' | 'devices' | 'catalogue' | 'keys' | 'vault' | 'recurring';

/** Effects a manager's audit of the day must see: a channel with one of these declares an audit kind. */
export const AUDITED_EFFECTS: readonly ChannelEffect[] = ['session', 'discount', 'money', 'close', 'settings', 'users', 'devices', 'catalogue', 'keys', 'vault', 'recurring'];

/** The audit log's fields a record fills beside its kind, who and when (shared/ipc/audit.ts AuditEntry). */
export type AuditField = 'amount' | 'transaction' | 'detail' | 'approver';

/** `none`, or the kinds of record a successful call writes and the fields they fill (`approver`: the detail names the manager whose PIN approved it). */
export type ChannelAudit = 'none' | { readonly kinds: readonly AuditKind[]; readonly fields: readonly AuditField[] };

export interface ChannelDeclaration<S extends z.ZodType = z.ZodType> {
  /** The single argument's schema (z.void() for none). */
  readonly args: S;
  readonly access: ChannelAccess;
  readonly effect: ChannelEffect;
  readonly audit: ChannelAudit;
  /**
   * A copied data folder still answers it (electron/core/queue/register-binding.ts): signing in and
   * out, what the shell reads at start, and the key backup. Everything else answers the copy's sentence.
   */
  readonly copiedFolder?: 'answers';
}

export type ChannelDeclarations = Readonly<Record<string, ChannelDeclaration>>;

/** The audit part of a declaration, written short: `audits(['sale'], ['amount', 'transaction', 'detail'])`. */
export function audits<const K extends readonly AuditKind[], const F extends readonly AuditField[]>(kinds: K, fields: F): { readonly kinds: K; readonly fields: F } {
  return { kinds, fields };
}

/** Whether `role` may call a channel of `access` (signed-out callers are answered before this is asked). */
export function roleMayCall(access: ChannelAccess, role: Role): boolean {
  return access === 'before-sign-in' || access === 'signed-in' || access.includes(role);
}
