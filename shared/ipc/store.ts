/**
 * The `store:*` channels (issue 24): this register as one of a store's registers. A manager
 * connects the store's first register to a store server with the code the server printed at its
 * setup, adds further registers from one already in (Manage → Registers → Add: a one-time code),
 * renames or removes them, and closes the store's day. Every signed-in user sees the store's part
 * of the status bar (pushed event `store:status`). A register that is in no store answers
 * `joined: false` everywhere and works exactly as before.
 *
 * The core's side is electron/core/store/; the wire protocol to the store server is
 * shared/store/store-wire.ts.
 */
import { z } from 'zod';
import { idSchema } from './common';
import { MANAGER, audits, type ChannelDeclarations } from './channel-declaration';
import { joinCodeSchema, registerRenameSchema, type RegisterFigures, type StoreDay } from '../store/store-wire';
import type { DayReport } from './reports';

/** https://, a host name, an IPv4 or a bracketed IPv6 address, an optional port, nothing after. */
const STORE_ADDRESS = /^https:\/\/([A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?\/?$/;

/** A store server's address as typed: https://host:port (the scheme may be left out; plain http is refused). */
export const storeAddressSchema = z
  .string()
  .trim()
  .min(1, "Type the store server's address, such as 192.168.1.20:7443.")
  .max(200)
  .transform((s) => (/^[a-z]+:\/\//i.test(s) ? s : `https://${s}`))
  .pipe(
    z
      .string()
      .refine((s) => !/^http:\/\//i.test(s), 'The store server is reached over https only (its own certificate keeps the registers\' traffic private).')
      .refine((s) => STORE_ADDRESS.test(s), "Type the store server's address as host:port, such as 192.168.1.20:7443."),
  );

export const storeJoinArgsSchema = z.strictObject({
  address: storeAddressSchema,
  code: joinCodeSchema,
  registerName: z.string().trim().min(1, 'Give this register a name.').max(40, 'A name is at most 40 characters.'),
});
export type StoreJoinArgs = z.input<typeof storeJoinArgsSchema>;

export const STORE_MSG = {
  notJoined: 'This register is not in a store.',
  away: 'The store server cannot be reached just now. This register keeps selling; what it does is sent when the server is back.',
  wrongCode: 'That code is not (or no longer) valid: codes work once, for 15 minutes. Make a new one on a register of the store.',
  wrongServer: "The server at that address is not the store that made this code (its certificate does not match). Check the address.",
  removed: 'This register was removed from the store. Its sales stay on it. To join the store again, enter a new code made with Add on one of its registers.',
  alreadyJoined: 'This register is already in a store.',
  notThisOne: 'Remove this register from another register of the store.',
  unknownRegister: 'That register is not in the store (any more).',
  closeWaiting: (names: string) => `The store's day is closed. Waiting for ${names} to close theirs: each does as soon as it is connected.`,
} as const;

/** What the status bar and the Registers screen show of this register's store. */
export interface StoreStatus {
  joined: boolean;
  /** `none`: in no store; `connected`: the last exchange with the store server worked; `away`: it did not (sales go on, changes wait); `removed`: a manager removed this register. */
  connection: 'none' | 'connected' | 'away' | 'removed';
  registerId: string | null;
  registerName: string | null;
  /** The address in use (the first that answered). */
  address: string | null;
  /** Changes made here and not yet at the store server. */
  waiting: number;
  /** When the last push or pull succeeded (ms, this register's clock); null before the first. */
  lastSyncMs: number | null;
  /** The store's newest seq this register has applied. */
  lastSeq: number;
}

export const STORE_STATUS_NONE: StoreStatus = { joined: false, connection: 'none', registerId: null, registerName: null, address: null, waiting: 0, lastSyncMs: null, lastSeq: 0 };

/** The words the status bar shows. */
export function storeStatusWords(s: StoreStatus): string | null {
  if (!s.joined) return null;
  if (s.connection === 'removed') return 'Store: this register was removed';
  if (s.connection === 'connected') return s.waiting > 0 ? `Store: connected, sending ${s.waiting}` : 'Store: connected';
  return s.waiting === 0 ? 'Store: away' : `Store: away, ${s.waiting} ${s.waiting === 1 ? 'change' : 'changes'} waiting`;
}

/** One register on the Registers screen. */
export interface RegisterView {
  id: string;
  name: string;
  thisRegister: boolean;
  connected: boolean;
  lastSeenMs: number | null;
  waiting: number;
}

/** A one-time code for a new register, shown once on the register that made it. */
export interface StoreInvitation {
  /** Grouped for reading out: XXXXX-XXXXX-XXXXX-XXXXX. */
  code: string;
  address: string;
  expiresMs: number;
}

/** The End of day screen's store part: every register, each listed, and the totals. */
export interface StoreReport {
  from: number;
  to: number;
  registers: Array<RegisterFigures & { thisRegister: boolean }>;
  totals: Omit<RegisterFigures, 'registerId' | 'name' | 'lastZ'>;
  /**
   * Card totals against the gateway's records: `gatewayCents` is what the gateway holds for the
   * period when this register reaches the store's gateway (the shared engine), else null.
   */
  cardCheck: { tendersCents: number; gatewayCents: number | null; matches: boolean | null };
  /** Registers whose changes had not all reached the store server when it answered (their figures may grow). */
  behind: string[];
}

export interface StoreDayView extends StoreDay {
  /** Registers that have closed their own day for it, and those still to. */
  closed: string[];
  waitingFor: string[];
}

export const storeCloseArgsSchema = z.strictObject({
  counts: z.array(z.strictObject({ registerId: idSchema, countedCents: z.number().int().min(0).max(99_999_999) })).max(50),
});

export const storeHandlers = {
  'store:status': { args: z.void(), access: 'signed-in', effect: 'read', audit: 'none' },
  'store:join': { args: storeJoinArgsSchema, access: MANAGER, effect: 'settings', audit: audits(['store-change'], ['detail']) },
  'store:registers': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none' },
  'store:invite': { args: z.void(), access: MANAGER, effect: 'settings', audit: audits(['store-change'], ['detail']) },
  'store:rename-register': { args: z.strictObject({ id: idSchema, name: registerRenameSchema.shape.name }), access: MANAGER, effect: 'settings', audit: audits(['store-change'], ['detail']) },
  'store:remove-register': { args: z.strictObject({ id: idSchema }), access: MANAGER, effect: 'settings', audit: audits(['store-change'], ['detail']) },
  'store:report': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none' },
  'store:close-day': { args: storeCloseArgsSchema, access: MANAGER, effect: 'close', audit: audits(['store-z'], ['amount', 'detail']) },
  'store:days': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none' },
} as const satisfies ChannelDeclarations;

export interface StoreResults {
  'store:status': StoreStatus;
  'store:join': StoreStatus;
  'store:registers': RegisterView[];
  'store:invite': StoreInvitation;
  'store:rename-register': RegisterView[];
  'store:remove-register': RegisterView[];
  'store:report': StoreReport;
  /** The store's day as closed; this register's own Z is in `thisRegisterZ`. */
  'store:close-day': StoreDayView & { thisRegisterZ: DayReport | null };
  'store:days': StoreDayView[];
}

export interface StoreEventPayloads {
  /** The store part of the status bar changed (connected, away, changes waiting). */
  'store:status': StoreStatus;
}
export const storeEventNames = ['store:status'] as const;
