/**
 * The renderer's side of the node host's WebSocket bridge. It builds the same
 * `RingupBridge` object the Electron preload exposes, from the same contract, so the
 * screens cannot tell which shell they run in.
 */
import {
  eventNames,
  methodToChannel,
  type EventName,
  type EventPayloads,
  type RingupBridge,
} from '../../../shared/ipc/contract';
import { fail, type Result } from '../../../shared/result';

type Pending = (r: Result<unknown>) => void;

export const BRIDGE_ERRORS = {
  noToken: 'This page was opened without its access key. Open the address that Ringup printed when it started.',
  closed: 'The connection to Ringup was lost. Reload the page once Ringup is running again.',
} as const;

const TOKEN_KEY = 'ringup.token';

/** Takes the per-launch token from `#token=…` (then removes it, and only it, from the address bar) or from this tab's session. */
export function takeToken(loc: Location = window.location, storage: Storage = window.sessionStorage): string | null {
  const m = /(?:^#|&)token=([^&]+)/.exec(loc.hash);
  if (m?.[1]) {
    const token = decodeURIComponent(m[1]);
    storage.setItem(TOKEN_KEY, token);
    // The rest of the fragment stays (`view=display` asks for the customer display, and a reload keeps it).
    const rest = loc.hash.slice(1).split('&').filter((p) => !p.startsWith('token=')).join('&');
    history.replaceState(null, '', loc.pathname + loc.search + (rest ? `#${rest}` : ''));
    return token;
  }
  return storage.getItem(TOKEN_KEY);
}

export function createWsBridge(url: string, token: string | null): RingupBridge {
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  let closedError: string | null = token ? null : BRIDGE_ERRORS.noToken;

  const ready: Promise<WebSocket | null> = new Promise((resolve) => {
    if (!token) return resolve(null);
    const ws = new WebSocket(url);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', token }));
    ws.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data)) as
        | { type: 'ready' }
        | { type: 'result'; id: number; result: Result<unknown> }
        | { type: 'event'; event: EventName; payload: unknown };
      if (msg.type === 'ready') resolve(ws);
      else if (msg.type === 'result') {
        pending.get(msg.id)?.(msg.result);
        pending.delete(msg.id);
      } else if (msg.type === 'event') listeners.get(msg.event)?.forEach((l) => l(msg.payload));
    };
    ws.onclose = (ev) => {
      closedError = ev.code === 4401 ? BRIDGE_ERRORS.noToken : BRIDGE_ERRORS.closed;
      for (const p of pending.values()) p(fail('disconnected', closedError));
      pending.clear();
      resolve(null);
    };
  });

  async function call(channel: string, arg: unknown): Promise<Result<unknown>> {
    const ws = await ready;
    if (!ws || ws.readyState !== WebSocket.OPEN) return fail('disconnected', closedError ?? BRIDGE_ERRORS.closed);
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      ws.send(JSON.stringify({ type: 'call', id, channel, arg }));
    });
  }

  const bridge: Record<string, unknown> = {
    on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void) {
      if (!eventNames.includes(event)) throw new Error(`Unknown event ${event}`);
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const l = listener as (p: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
  };
  for (const [method, channel] of Object.entries(methodToChannel)) {
    bridge[method] = (arg?: unknown) => call(channel, arg);
  }
  return bridge as RingupBridge;
}
