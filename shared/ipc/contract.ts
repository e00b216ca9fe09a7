/**
 * The typed IPC contract: the single source of truth for what the renderer may ask
 * of the core (handlers) and what the core pushes to the renderer (events).
 *
 * Each handler is declared once with a zod schema for its argument; the request and
 * response types are derived from it. Main (Electron), the preload bridge, the node
 * host's WebSocket bridge and the renderer's client all consume this one map.
 */
import { z } from 'zod';
import type { Result } from '../result';

/* ---------- payloads ---------- */

export const gatewayHealthSchema = z.enum(['ok', 'unreachable', 'starting']);
export type GatewayHealth = z.infer<typeof gatewayHealthSchema>;

export interface CoreStatus {
  appName: string;
  version: string;
  /** Where this instance keeps its data (SQLite files, keys, settings). */
  dataDir: string;
  /** `electron` when running inside the desktop shell, `node-host` when served to a browser. */
  shell: 'electron' | 'node-host';
  gateway: {
    mode: 'embedded' | 'remote';
    /** Base URL ending in /v2. */
    baseUrl: string;
    health: GatewayHealth;
    /** Milliseconds the last health probe took, when it answered. */
    latencyMs: number | null;
    checkedAt: number;
  };
}

/* ---------- POS users and sessions ---------- */

export const roleSchema = z.enum(['cashier', 'manager']);
export type Role = z.infer<typeof roleSchema>;

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

const idSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/, 'Use letters, digits, dot, colon, dash or underscore.');

const pinSchema = z.string().regex(/^\d{4,8}$/, 'A PIN is 4 to 8 digits.');

export const signInArgsSchema = z.strictObject({
  userId: idSchema,
  pin: pinSchema,
});

/** The signed-in user changes their own PIN. */
export const changePinArgsSchema = z
  .strictObject({ currentPin: pinSchema, newPin: pinSchema })
  .refine((a) => a.currentPin !== a.newPin, { message: 'The new PIN must differ from the current one.', path: ['newPin'] });

/* ---------- sales ---------- */

/** Largest amount one sale may carry, in cents ($999,999.99). */
export const MAX_AMOUNT_CENTS = 99_999_999;
const centsSchema = z.number().int().min(0).max(MAX_AMOUNT_CENTS);

/**
 * Card data for one keyed sale. It crosses the boundary exactly once, renderer → core,
 * and is never logged, stored or returned.
 */
export const keyedCardSchema = z.strictObject({
  number: z.string().regex(/^\d{13,19}$/, 'A card number is 13 to 19 digits.'),
  /** MMYY */
  expiry: z.string().regex(/^(0[1-9]|1[0-2])\d{2}$/, 'The expiry date is MMYY.'),
  cvv: z.string().regex(/^\d{3,4}$/, 'The security code is 3 or 4 digits.'),
  zip: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9]$/, 'The ZIP or postal code is 3 to 10 letters or digits.'),
});
export type KeyedCard = z.infer<typeof keyedCardSchema>;

export const saleChargeArgsSchema = z.strictObject({
  subtotalCents: centsSchema.min(1),
  taxCents: centsSchema,
  tipCents: centsSchema,
  card: keyedCardSchema,
  /** The renderer's idempotency key; becomes the transaction_api_id so a retry cannot charge twice. */
  clientRef: idSchema,
});
export type SaleChargeArgs = z.infer<typeof saleChargeArgsSchema>;

export interface SaleConfig {
  merchantName: string;
  /** Three percents offered on screen (plus custom), from the terminal or product transaction configuration. */
  tipPercents: number[];
  tipEnabled: boolean;
  /** Sales tax rate in basis points (825 = 8.25 %); 0 hides the tax option. */
  taxRateBasisPoints: number;
  /** Where the tip percents came from, for the help text. */
  tipSource: 'terminal' | 'default';
}

export type TransactionKind = 'sale' | 'refund' | 'other';
export type TransactionState = 'approved' | 'declined' | 'voided' | 'refunded' | 'partially_refunded' | 'pending' | 'other';

/** A transaction as the screens see it: amounts in cents, card masked, sentences ready to read out. */
export interface TransactionView {
  id: string;
  apiId: string | null;
  kind: TransactionKind;
  state: TransactionState;
  statusId: number;
  reasonCodeId: number | null;
  /** Plain sentence for the cashier (e.g. "Declined: the card has insufficient funds."). */
  message: string;
  amountCents: number;
  taxCents: number;
  tipCents: number;
  /** Sum of approved refunds against this sale. */
  refundedCents: number;
  /** What may still be refunded (0 unless an approved, unvoided sale). */
  refundableCents: number;
  voidable: boolean;
  cardBrand: string;
  lastFour: string;
  authCode: string | null;
  /** Unix seconds. */
  createdTs: number;
  settled: boolean;
  previousTransactionId: string | null;
  notificationEmail: string | null;
}

export interface SaleOutcome {
  approved: boolean;
  message: string;
  transaction: TransactionView;
}

export interface RefundOutcome {
  approved: boolean;
  message: string;
  refund: TransactionView;
  original: TransactionView;
}

export interface TransactionTotals {
  salesCount: number;
  salesCents: number;
  refundsCount: number;
  refundsCents: number;
  voidsCount: number;
  voidsCents: number;
  declinedCount: number;
  /** Sales minus refunds (voids and declines excluded). */
  netCents: number;
}

/** One page of today's transactions; the renderer asks page after page and shows rows as they come. */
export interface TodayTransactions {
  rows: TransactionView[];
  /** Totals of this page's rows. */
  totals: TransactionTotals;
  /** Unix seconds of local midnight the list starts at. */
  since: number;
  /** Unix seconds the snapshot ends at: pass it back for the next pages so they do not shift. */
  until: number;
  page: number;
  pageCount: number;
}

export const TODAY_PAGE_SIZE = 5000;

export const todayArgsSchema = z.strictObject({
  page: z.number().int().min(1).max(1000),
  until: z.number().int().min(0).max(4_102_444_800).optional(),
});

export const transactionIdArgsSchema = z.strictObject({ id: idSchema });

export const transactionSearchArgsSchema = z
  .strictObject({
    lastFour: z.string().regex(/^\d{4}$/, 'The last four are 4 digits.').optional(),
    amountCents: centsSchema.min(1).optional(),
    /** Unix seconds, inclusive. */
    from: z.number().int().min(0).max(4_102_444_800).optional(),
    to: z.number().int().min(0).max(4_102_444_800).optional(),
    transactionApiId: z.string().min(1).max(64).regex(/^\S+$/, 'A transaction ID has no spaces.').optional(),
  })
  .refine((a) => a.from === undefined || a.to === undefined || a.from <= a.to, {
    message: 'The start date must be before the end date.',
    path: ['from'],
  });
export type TransactionSearchArgs = z.infer<typeof transactionSearchArgsSchema>;

export const refundArgsSchema = z.strictObject({ id: idSchema, amountCents: centsSchema.min(1) });

export const receiptEmailArgsSchema = z.strictObject({ id: idSchema, email: z.email('Enter an e-mail address like name@example.com.').max(128) });

/* ---------- handler map ---------- */

/**
 * `args` is the zod schema of the single argument (use z.void() for none).
 * The response type lives in the `HandlerResults` interface below, keyed the same.
 */
export const handlerArgs = {
  'core:status': z.void(),
  'gateway:check': z.void(),

  'auth:users': z.void(),
  'auth:session': z.void(),
  'auth:sign-in': signInArgsSchema,
  'auth:sign-out': z.void(),
  'auth:change-pin': changePinArgsSchema,

  'sale:config': z.void(),
  'sale:charge': saleChargeArgsSchema,

  'transactions:today': todayArgsSchema,
  'transactions:search': transactionSearchArgsSchema,
  'transactions:view': transactionIdArgsSchema,
  'transactions:refund': refundArgsSchema,
  'transactions:void': transactionIdArgsSchema,

  'receipt:print': transactionIdArgsSchema,
  'receipt:email': receiptEmailArgsSchema,
} as const;

export interface HandlerResults {
  'core:status': CoreStatus;
  'gateway:check': CoreStatus['gateway'];

  'auth:users': SignInInfo;
  'auth:session': Session | null;
  'auth:sign-in': Session;
  'auth:sign-out': null;
  'auth:change-pin': null;

  'sale:config': SaleConfig;
  'sale:charge': SaleOutcome;

  'transactions:today': TodayTransactions;
  'transactions:search': TransactionView[];
  'transactions:view': TransactionView;
  'transactions:refund': RefundOutcome;
  'transactions:void': TransactionView;

  /** In the node host this always fails with code `use_browser_print`: the renderer then calls window.print(). */
  'receipt:print': { savedTo: string | null };
  'receipt:email': { sentTo: string };
}

export type Channel = keyof typeof handlerArgs;
export type HandlerArg<C extends Channel> = z.infer<(typeof handlerArgs)[C]>;

/** What main implements: unknown-free, already validated arguments. */
export type HandlerMap = {
  [C in Channel]: (arg: HandlerArg<C>) => Promise<Result<HandlerResults[C]>>;
};

/* ---------- pushed events ---------- */

/** The single Electron channel that carries every pushed event as (name, payload). */
export const EVENT_CHANNEL = 'ringup:event';

export interface EventPayloads {
  'core:status': CoreStatus;
  /** Who is signed in changed (here or in another window of the same core). */
  'auth:session': Session | null;
}
export type EventName = keyof EventPayloads;

/* ---------- the bridge the renderer sees as window.ringup ---------- */

/** Channel `a:b-c` becomes method `aBC` (`core:status` → `coreStatus`). */
type CamelTail<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${CamelTail<Capitalize<T>>}` : S;
type MethodName<C extends string> = C extends `${infer NS}:${infer Rest}` ? `${NS}${Capitalize<CamelTail<Rest>>}` : never;

export type RingupBridge = {
  [C in Channel as MethodName<C>]: HandlerArg<C> extends void
    ? () => Promise<Result<HandlerResults[C]>>
    : (arg: HandlerArg<C>) => Promise<Result<HandlerResults[C]>>;
} & {
  /** Subscribe to a pushed event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
};

export const channels = Object.keys(handlerArgs) as Channel[];

export function methodName(channel: string): string {
  const [ns, rest = ''] = channel.split(':');
  const tail = rest.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
  return ns + tail.charAt(0).toUpperCase() + tail.slice(1);
}

/** Map from bridge method name to channel, used by both bridges to build `window.ringup`. */
export const methodToChannel: Record<string, Channel> = Object.fromEntries(channels.map((c) => [methodName(c), c]));

/** Names of pushed events, so bridges can check a subscription before forwarding it. */
export const eventNames: readonly EventName[] = ['core:status', 'auth:session'];
