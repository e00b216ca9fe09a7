/**
 * The store server's wire protocol (issue 24), declared once: the register's sync client
 * (electron/core/store/) and the store server (electron/store-server/) both import these
 * schemas, so a request one side sends is the request the other side checks.
 *
 * Shape of the protocol:
 * - Everything a register does that the store shares is an **event** with an id made on the
 *   register (`<registerId>:<outbox seq>`). The register pushes its outbox; the server inserts each
 *   event once (`ON CONFLICT (id) DO NOTHING`), numbers it with the store's sequence (`seq`, in
 *   commit order) and stamps it with its own clock (`serverTs`). A push that is repeated after a
 *   kill or a lost answer changes nothing.
 * - A register pulls the events after the last `seq` it has applied (long poll: the server holds
 *   the request until there is something or `waitMs` passed), and applies them in `seq` order.
 * - Shared rows (users, settings, the catalogue) travel as whole rows ("upsert" / "delete" of a
 *   key): the later event in `seq` order wins, and `seq` order is the order the server received
 *   them in: "the later change by the store server's clock wins". Facts (sales, cash, audit rows,
 *   stock movements, Z reports) are append-only and keyed by their own id, so they merge.
 * - The server itself makes events too (a register renamed or removed, the store's day closed),
 *   with ids it makes (`server:<uuid>`), into the same sequence.
 *
 * Everything travels over HTTPS with the store server's own certificate, pinned by its SHA-256
 * fingerprint on each register (store-code.ts says how a join learns it).
 */
import { z } from 'zod';
import { idSchema } from '../ipc/common';

/** Every route, under one version prefix. */
export const STORE_ROUTES = {
  /** GET, no credentials: what this server is (name, fingerprint, version): the join form's first step. */
  hello: '/v1/hello',
  /** POST joinRequest (no credentials: the one-time code is the credential) → joinAnswer. */
  join: '/v1/join',
  /** POST inviteRequest (register credentials, a manager's act) → { expiresTs }. */
  invitations: '/v1/invitations',
  /** POST pushRequest → pushAnswer. */
  events: '/v1/events',
  /** GET ?after=&limit=&waitMs= → pullAnswer. */
  pull: '/v1/events',
  /** GET → registersAnswer. */
  registers: '/v1/registers',
  /** PATCH { name } / DELETE (register credentials). */
  register: '/v1/registers/:id',
  /** GET ?from=&to= (unix seconds) → storeFigures: what the server holds for the store's report. */
  figures: '/v1/figures',
  /** POST storeCloseRequest → storeDay: the store's Z, which every register's day follows. */
  storeDays: '/v1/store-days',
  /** GET → storeDay[]: the store's closed days, newest first. */
  storeDayList: '/v1/store-days',
  /** The embedded engine (`--engine`), behind the store server's TLS: /gateway/v2/… is the v2 interface. */
  gateway: '/gateway',
} as const;

/** The header every authenticated request carries: `Authorization: Bearer <register token>`. */
export const STORE_AUTH_SCHEME = 'Bearer';
/** How many outbox rows a register still holds: sent with each push and pull, shown on the Registers screen. */
export const WAITING_HEADER = 'x-ringup-waiting';

/** Longest hold of a pull (the server answers sooner when something arrives). */
export const PULL_WAIT_MAX_MS = 25_000;
/** Most events one push or one pull carries. */
export const SYNC_BATCH_MAX = 1_000;
/** How long an invitation's one-time code can be used. */
export const INVITE_TTL_MS = 15 * 60_000;

/* ---------- what travels: events ---------- */

/**
 * The tables a store shares as whole rows, in the order a full copy is sent (parents before
 * children, so a row's references exist when it is applied). `key` is the primary key's
 * columns; `where` limits which rows are shared (settings: the store's, not this register's own
 * gateway choice). Each register's SQLite has these tables already (pos-database.ts).
 */
export const SHARED_ROW_TABLES = [
  { table: 'settings', key: ['key'], where: "key = 'store-settings'" },
  { table: 'pos_users', key: ['id'] },
  { table: 'catalogue_categories', key: ['id'] },
  { table: 'modifier_groups', key: ['id'] },
  { table: 'modifier_options', key: ['id'] },
  { table: 'catalogue_items', key: ['id'] },
  { table: 'catalogue_variants', key: ['id'] },
  { table: 'catalogue_item_groups', key: ['item_id', 'group_id'] },
] as const;
export type SharedRowTable = (typeof SHARED_ROW_TABLES)[number]['table'];
export const SHARED_ROW_TABLE_NAMES = SHARED_ROW_TABLES.map((t) => t.table) as unknown as readonly [SharedRowTable, ...SharedRowTable[]];

/**
 * Facts: written once on a register, never changed (a cart is the exception: its snapshot is sent
 * again when a refund changes it, keyed by the cart's id, the later snapshot replacing the earlier).
 * - `stock_movements`: the stock ledger; pulled by every register (stock is their sum).
 * - `audit_log`: the register's audit rows; the server chains them into the store's log.
 * - `cart`: a closed cart (paid, due or cancelled) with its lines and tenders.
 * - `cash_movements`: cash into and out of the drawer.
 * - `z_reports`: a register's closed day (its DayReport as printed, with its drawer count).
 * - `refunds`: a card refund this register made (its refund_ledger row), whichever register took
 *   the sale: with the store's shared gateway a sale taken on one register is refunded from
 *   another, and no cart changes there, so the refund travels as its own fact and the store's
 *   figures count it on the register that made it, in the period it was made.
 */
export const FACT_KINDS = ['stock_movements', 'audit_log', 'cart', 'cash_movements', 'z_reports', 'refunds'] as const;
export type FactKind = (typeof FACT_KINDS)[number];

/** Events the server makes itself. */
export const SERVER_KINDS = ['register', 'store_day'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

/** What a register pulls: shared rows, the stock ledger and the server's own events (not other registers' sales or audit rows). */
export const PULLED_KINDS = [...SHARED_ROW_TABLE_NAMES, 'stock_movements', ...SERVER_KINDS] as const;

const jsonRow = z.record(z.string(), z.unknown());

/** One event as a register pushes it. `at`: the register's clock (ms), for the audit only; the server's clock orders. */
export const pushedEventSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('row'),
    id: z.string().min(3).max(100),
    table: z.enum(SHARED_ROW_TABLE_NAMES),
    op: z.enum(['upsert', 'delete']),
    /** The primary key's values, in SHARED_ROW_TABLES' key order. */
    key: z.array(z.union([z.string(), z.number()])).min(1).max(2),
    /** The whole row (upsert); null for a delete. */
    row: jsonRow.nullable(),
    /** The last store seq this register had applied when the change was made: a later seq on the same key by another register means the two were made apart. */
    seenSeq: z.number().int().min(0),
    at: z.number().int().min(0),
  }),
  z.strictObject({
    type: z.literal('fact'),
    id: z.string().min(3).max(100),
    kind: z.enum(FACT_KINDS),
    /** The fact's own id on the register (a movement's id, a cart's id, an audit row's seq, a Z's number, a refund's transaction id). */
    key: z.string().min(1).max(100),
    body: jsonRow,
    at: z.number().int().min(0),
  }),
]);
export type PushedEvent = z.infer<typeof pushedEventSchema>;

export const pushRequestSchema = z.strictObject({ events: z.array(pushedEventSchema).max(SYNC_BATCH_MAX) });
export type PushRequest = z.infer<typeof pushRequestSchema>;
/** `accepted`: how many were new; `lastSeq`: the store's newest seq after the push. */
export interface PushAnswer {
  accepted: number;
  lastSeq: number;
}

/** An event as the store holds it and a register pulls it. */
export interface StoreEvent {
  seq: number;
  id: string;
  /** Who sent it (null: the server made it). */
  registerId: string | null;
  /** `row` and `fact` as pushed; `register` and `store_day` as the server made them. */
  type: 'row' | 'fact' | 'server';
  /** The table (row), fact kind (fact) or server kind (server). */
  kind: string;
  key: unknown[] | string;
  op?: 'upsert' | 'delete';
  body: Record<string, unknown> | null;
  serverTs: number;
}
export interface PullAnswer {
  events: StoreEvent[];
  /** The newest seq the server has (a register that got fewer than `limit` events is up to date). */
  lastSeq: number;
}

/** `register` events: a register joined, was renamed or removed. */
export interface RegisterEventBody {
  registerId: string;
  name: string;
  removed: boolean;
}

/* ---------- joining ---------- */

/** GET /v1/hello: what this server is, before any credentials (the join form's first step). */
export interface StoreHello {
  name: string;
  storeId: string;
  /** SHA-256 of the certificate, AA:BB:… (what the code's second half is checked against). */
  fingerprint: string;
  /** The certificate (PEM) the register pins once joined. */
  certificate: string;
  version: string;
  /** Every address the store's servers answer on. */
  addresses: string[];
}

/** The code as typed: 20 letters and digits (Crockford base32), grouped in fives; dashes and spaces are ignored, case too. */
export const joinCodeSchema = z
  .string()
  .transform((s) => s.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[0-9A-HJKMNP-TV-Z]{20}$/, 'A store code is 20 letters and digits, as shown on the register that made it.'));

export const joinRequestSchema = z.strictObject({
  /** SHA-256 of the code's secret half, hex: the server keeps only that, and the code itself never travels. */
  codeProof: z.string().regex(/^[0-9a-f]{64}$/),
  registerName: z.string().trim().min(1).max(40),
});
export type JoinRequest = z.infer<typeof joinRequestSchema>;

export interface JoinAnswer {
  storeId: string;
  registerId: string;
  registerName: string;
  /** The register's own credential (shown once; the server keeps its hash). */
  token: string;
  /** The store's PIN pepper ring, sealed with a key made from the code (store-code.ts); null for the store's first register, whose ring becomes the store's. */
  sealedPepper: string | null;
  /** Whether this is the store's first register (its users, settings and catalogue become the store's). */
  first: boolean;
  /** Every address the store's servers answer on (a register tries the next when one is away). */
  addresses: string[];
  /** The store's shared gateway when the server hosts the embedded engine (`--engine`), else null: the register keeps its own. */
  gateway: { baseUrl: string; developerId: string; userId: string; userApiKey: string; locationId: string | null; productTransactionId: string | null } | null;
  lastSeq: number;
}

export const inviteRequestSchema = z.strictObject({
  codeProof: z.string().regex(/^[0-9a-f]{64}$/),
  /** The store's PIN pepper ring sealed with the code (null when the inviting register has none to give). */
  sealedPepper: z.string().max(4096).nullable(),
});

/* ---------- registers ---------- */

export interface StoreRegisterRow {
  id: string;
  name: string;
  joinedTs: number;
  /** Server time (ms) of the register's last request; null before its first. */
  lastSeenTs: number | null;
  /** Its outbox as it last said. */
  waiting: number;
  /** Whether it is holding a pull now (or was seen within the last 30 s). */
  connected: boolean;
  removed: boolean;
}
export interface RegistersAnswer {
  registers: StoreRegisterRow[];
}
export const registerRenameSchema = z.strictObject({ name: z.string().trim().min(1, 'Give the register a name.').max(40, 'A name is at most 40 characters.') });

/* ---------- the store's reports ---------- */

/** One register's money in a period, from the facts it pushed (integer cents). */
export interface RegisterFigures {
  registerId: string;
  name: string;
  /** Carts paid in the period. */
  sales: number;
  /** Card tenders approved with their tips, less the card refunds this register made in the period. */
  cardCents: number;
  /** Cash into the drawer less cash given back. */
  cashCents: number;
  /** Tax on those sales. */
  taxCents: number;
  /** Tips on cards. */
  tipCents: number;
  /** card + cash. */
  netCents: number;
  /** The register's last Z in the period: its number, its drawer count (null: not counted) and what its drawer should have held. */
  lastZ: { number: number; countedCents: number | null; expectedCents: number | null; toTs: number } | null;
}
export interface StoreFigures {
  from: number;
  to: number;
  registers: RegisterFigures[];
  totals: Omit<RegisterFigures, 'registerId' | 'name' | 'lastZ'>;
  /** The newest seq the figures include: events after it were not there yet. */
  throughSeq: number;
}

export const storeCloseRequestSchema = z.strictObject({
  /** What the manager counted in each register's drawer (cents); a register left out closes uncounted. */
  counts: z.array(z.strictObject({ registerId: idSchema, countedCents: z.number().int().min(0).max(99_999_999) })).max(50),
  closedBy: z.string().min(1).max(80),
});
export type StoreCloseRequest = z.infer<typeof storeCloseRequestSchema>;

/** `store_day` events: the store's Z. Every register closes its own day when it applies this. */
export interface StoreDay {
  number: number;
  closedTs: number;
  closedBy: string;
  counts: Array<{ registerId: string; countedCents: number }>;
}

/** The error body of every refusal: the same envelope as the engine's. */
export interface StoreErrorBody {
  errors: Record<string, string[]>;
}
