/**
 * A caller of a running node host's IPC contract, as a window is one: a WebSocket to the host's
 * bridge with its own origin and the launch token (ws-bridge.ts), then calls by channel name.
 * Each connection is its own caller with its own sign-in, so a test keeps one per role it acts as.
 * Pushed events are kept (newest last) for a test that waits on one.
 */
import WebSocket from 'ws';

export type CallResult<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string; fields?: Record<string, string[]> } };

export interface HostCaller {
  call<T>(channel: string, arg?: unknown): Promise<CallResult<T>>;
  /** The value, or an error naming the channel and the core's sentence. */
  must<T>(channel: string, arg?: unknown): Promise<T>;
  /** Events heard so far, oldest first. */
  readonly events: Array<{ event: string; payload: unknown }>;
  /** Whether the socket is still open (a killed host closes it). */
  readonly open: boolean;
  close(): void;
}

/** How long one call may take before the caller gives up (a killed host never answers). */
const CALL_TIMEOUT_MS = 60_000;

export async function connectHost(host: { port: number; origin: string; token: string }): Promise<HostCaller> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, { headers: { origin: host.origin } });
  const pending = new Map<number, (r: CallResult<unknown>) => void>();
  const events: Array<{ event: string; payload: unknown }> = [];
  let nextId = 1;
  const gone = (message: string) => {
    for (const [id, resolve] of pending) {
      pending.delete(id);
      resolve({ ok: false, error: { code: 'gone', message } });
    }
  };
  ws.on('close', () => gone('the host closed the connection'));
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ type: 'hello', token: host.token })));
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as { type: string; id?: number; result?: CallResult<unknown>; event?: string; payload?: unknown };
      if (m.type === 'ready') resolve();
      else if (m.type === 'result') {
        const r = pending.get(m.id!);
        pending.delete(m.id!);
        r?.(m.result!);
      } else if (m.type === 'event') events.push({ event: m.event!, payload: m.payload });
    });
  });
  const call = <T>(channel: string, arg?: unknown): Promise<CallResult<T>> => {
    if (ws.readyState !== ws.OPEN) return Promise.resolve({ ok: false, error: { code: 'gone', message: 'the host connection is closed' } });
    const id = nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        resolve({ ok: false, error: { code: 'timeout', message: `${channel} did not answer within ${CALL_TIMEOUT_MS} ms` } });
      }, CALL_TIMEOUT_MS);
      pending.set(id, (r) => {
        clearTimeout(timer);
        resolve(r as CallResult<T>);
      });
      ws.send(JSON.stringify({ type: 'call', id, channel, arg }));
    });
  };
  return {
    call,
    async must<T>(channel: string, arg?: unknown) {
      const r = await call<T>(channel, arg);
      if (!r.ok) throw new Error(`${channel}: ${r.error.message}${r.error.fields ? ` ${JSON.stringify(r.error.fields)}` : ''}`);
      return r.value;
    },
    events,
    get open() {
      return ws.readyState === ws.OPEN;
    },
    close: () => ws.close(),
  };
}
