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

/* ---------- handler map ---------- */

/**
 * `args` is the zod schema of the single argument (use z.void() for none).
 * The response type lives in the `HandlerResults` interface below, keyed the same.
 */
export const handlerArgs = {
  'core:status': z.void(),
  'gateway:check': z.void(),
} as const;

export interface HandlerResults {
  'core:status': CoreStatus;
  'gateway:check': CoreStatus['gateway'];
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
export const eventNames: readonly EventName[] = ['core:status'];
