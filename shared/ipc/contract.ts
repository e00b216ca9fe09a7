/**
 * The typed IPC contract: the single source of truth for what the renderer may ask
 * of the core (handlers) and what the core pushes to the renderer (events).
 *
 * It grows by domain: each file beside this one (core, auth, sales, transactions,
 * receipts …) declares its channels once — for each, a zod schema of its argument, who may
 * call it, what it does and what it audits (channel-declaration.ts) — and a result type,
 * and this file merges them into the one handler map (as Actual Budget merges its handler
 * types) and derives the argument schemas, the access map and the audit map from them. A channel declared by two domains is an error
 * when this module loads. Main (Electron), the preload bridge, the node host's
 * WebSocket bridge and the renderer's client all consume the merged map.
 *
 * To add a domain: write `shared/ipc/<domain>.ts` exporting `<domain>Handlers`
 * and `<Domain>Results` (and events, if any), then add it to the three lists below.
 */
import type { z } from 'zod';
import type { Result } from '../result';
import type { ChannelAccess, ChannelDeclarations } from './channel-declaration';
import type { AuditKind } from './audit';
import { batchesHandlers, type BatchesResults } from './batches';
import { reportsHandlers, type ReportsResults } from './reports';
import { vaultHandlers, type VaultResults } from './vault';
import { level3Handlers, type Level3Results } from './level3';
import { linksHandlers, type LinksResults } from './links';
import { auditHandlers, type AuditResults } from './audit';
import { authEventNames, authHandlers, type AuthEventPayloads, type AuthResults } from './auth';
import { coreEventNames, coreHandlers, type CoreEventPayloads, type CoreResults } from './core';
import { devicesEventNames, devicesHandlers, type DevicesEventPayloads, type DevicesResults } from './devices';
import { receiptsHandlers, type ReceiptsResults } from './receipts';
import { salesEventNames, salesHandlers, type SalesEventPayloads, type SalesResults } from './sales';
import { settingsEventNames, settingsHandlers, type SettingsEventPayloads, type SettingsResults } from './settings';
import { transactionsHandlers, type TransactionsResults } from './transactions';
import { usersHandlers, type UsersResults } from './users';
import { keysHandlers, type KeysResults } from './keys';
import { gatewayHandlers, type GatewayResults } from './gateway';
import { recurringHandlers, type RecurringResults } from './recurring';
import { outboxHandlers, type OutboxResults } from './outbox';
import { payPagesHandlers, type PayPagesResults } from './pay-pages';
import { billingLinksHandlers, type BillingLinksResults } from './billing-links';
import { queueEventNames, queueHandlers, type QueueEventPayloads, type QueueResults } from './queue';
import { catalogueEventNames, catalogueHandlers, type CatalogueEventPayloads, type CatalogueResults } from './catalogue';
import { cartEventNames, cartHandlers, type CartEventPayloads, type CartResults } from './cart';
import { displayEventNames, displayHandlers, type DisplayEventPayloads, type DisplayResults } from './display';
import { barcodeScannersEventNames, barcodeScannersHandlers, type BarcodeScannersEventPayloads, type BarcodeScannersResults } from './barcode-scanners';
import { printersEventNames, printersHandlers, type PrintersEventPayloads, type PrintersResults } from './printers';
import { storeEventNames, storeHandlers, type StoreEventPayloads, type StoreResults } from './store';

export * from './common';
export * from './channel-declaration';
export * from './core';
export * from './auth';
export * from './sales';
export * from './transactions';
export * from './receipts';
export * from './devices';
export * from './batches';
export * from './reports';
export * from './vault';
export * from './level3';
export * from './links';
export * from './settings';
export * from './audit';
export * from './users';
export * from './keys';
export * from './gateway';
export * from './recurring';
export * from './outbox';
export * from './pay-pages';
export * from './billing-links';
export * from './queue';
export * from './catalogue';
export * from './cart';
export * from './display';
export * from './barcode-scanners';
export * from './printers';
export * from './store';

/* ---------- handler map ---------- */

const domains = [coreHandlers, authHandlers, salesHandlers, transactionsHandlers, receiptsHandlers, devicesHandlers, batchesHandlers, reportsHandlers, vaultHandlers, level3Handlers, linksHandlers, settingsHandlers, auditHandlers, usersHandlers, keysHandlers, gatewayHandlers, recurringHandlers, outboxHandlers, payPagesHandlers, billingLinksHandlers, queueHandlers, catalogueHandlers, cartHandlers, displayHandlers, barcodeScannersHandlers, printersHandlers, storeHandlers];

/** Throws when two domains declare the same channel (a spread would silently keep the last). */
export function assertDisjointDomains(list: ReadonlyArray<Record<string, unknown>>): void {
  const seen = new Set<string>();
  for (const d of list) {
    for (const c of Object.keys(d)) {
      if (seen.has(c)) throw new Error(`IPC contract: channel "${c}" is declared by two domains`);
      seen.add(c);
    }
  }
}
assertDisjointDomains(domains);

/**
 * Every channel's declaration (channel-declaration.ts): its argument schema, who may call it,
 * what it does and what it audits, merged from the domains. The rest below is derived from it.
 */
export const channelDeclarations = {
  ...coreHandlers,
  ...authHandlers,
  ...salesHandlers,
  ...transactionsHandlers,
  ...receiptsHandlers,
  ...devicesHandlers,
  ...batchesHandlers,
  ...reportsHandlers,
  ...vaultHandlers,
  ...level3Handlers,
  ...linksHandlers,
  ...settingsHandlers,
  ...auditHandlers,
  ...usersHandlers,
  ...keysHandlers,
  ...gatewayHandlers,
  ...recurringHandlers,
  ...outboxHandlers,
  ...payPagesHandlers,
  ...billingLinksHandlers,
  ...queueHandlers,
  ...catalogueHandlers,
  ...cartHandlers,
  ...displayHandlers,
  ...barcodeScannersHandlers,
  ...printersHandlers,
  ...storeHandlers,
} as const satisfies ChannelDeclarations;

type Declared = typeof channelDeclarations;

export interface HandlerResults
  extends CoreResults,
    AuthResults,
    SalesResults,
    TransactionsResults,
    ReceiptsResults,
    DevicesResults,
    BatchesResults,
    ReportsResults,
    VaultResults,
    Level3Results,
    LinksResults,
    SettingsResults,
    AuditResults,
    UsersResults,
    KeysResults,
    GatewayResults,
    RecurringResults,
    OutboxResults,
    PayPagesResults,
    BillingLinksResults,
    QueueResults,
    CatalogueResults,
    CartResults,
    DisplayResults,
    BarcodeScannersResults,
    PrintersResults,
    StoreResults {}

export type Channel = keyof Declared;

/** `handlerArgs[channel]` is the zod schema of the single argument (z.void() for none); the response type lives in `HandlerResults`, keyed the same. */
export const handlerArgs = Object.fromEntries(Object.entries(channelDeclarations).map(([c, d]) => [c, d.args])) as { [C in Channel]: Declared[C]['args'] };

export type HandlerArg<C extends Channel> = z.infer<(typeof handlerArgs)[C]>;

/** Who may call each channel. */
export const channelAccess = Object.fromEntries(Object.entries(channelDeclarations).map(([c, d]) => [c, d.access])) as Record<Channel, ChannelAccess>;

/** What each channel writes to the audit log after it succeeded (`none`, or its kinds and fields). */
export const channelAudit = Object.fromEntries(Object.entries(channelDeclarations).map(([c, d]) => [c, d.audit])) as { [C in Channel]: Declared[C]['audit'] };

/** The channels that write to the audit log, and the kinds each may write (the core's recorders are typed by them). */
export type AuditedChannel = { [C in Channel]: Declared[C]['audit'] extends { kinds: readonly unknown[] } ? C : never }[Channel];
export type AuditKindOf<C extends AuditedChannel> = Declared[C]['audit'] extends { kinds: readonly (infer K extends AuditKind)[] } ? K : never;

/** What main implements: unknown-free, already validated arguments. */
export type HandlerMap = {
  [C in Channel]: (arg: HandlerArg<C>) => Promise<Result<HandlerResults[C]>>;
};

/* ---------- pushed events ---------- */

/** The single Electron channel that carries every pushed event as (name, payload). */
export const EVENT_CHANNEL = 'ringup:event';

export interface EventPayloads extends CoreEventPayloads, AuthEventPayloads, SalesEventPayloads, DevicesEventPayloads, SettingsEventPayloads, QueueEventPayloads, CartEventPayloads, DisplayEventPayloads, BarcodeScannersEventPayloads, PrintersEventPayloads, StoreEventPayloads, CatalogueEventPayloads {}
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
export const eventNames: readonly EventName[] = [...coreEventNames, ...authEventNames, ...salesEventNames, ...devicesEventNames, ...settingsEventNames, ...queueEventNames, ...cartEventNames, ...displayEventNames, ...barcodeScannersEventNames, ...printersEventNames, ...storeEventNames, ...catalogueEventNames];
