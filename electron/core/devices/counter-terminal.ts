/**
 * The counter's terminal, and what the devices' handlers share about it for the life of the
 * core: which terminal the counter uses (the location's first active one that has an address),
 * its status (none / connected / busy / offline) pushed as `terminal:status` when it changes,
 * whether a sale or a card read is running on it, and the terminal sale under way (so Cancel
 * reaches it even before it reached the terminal).
 *
 * The status is re-checked every 10 s with a plain TCP connect (or the serial path existing),
 * never a protocol frame, so it cannot collide with a transaction; busy comes from the
 * gateway's live state. While the gateway is away the terminal remembered for offline sales
 * (offline-terminal-sale.ts) is checked instead.
 */
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import type { TerminalStatus } from '../../../shared/ipc/contract';
import { tipPercentsOf } from '../../../shared/payments/terminal-timeouts';
import { serialMismatchOf } from '../../../shared/ipc/devices';
import type { GatewayClient } from '../../client/gateway-client';
import type { DeviceAddress } from '../../devices/device-link';
import type { CoreEvents } from '../platform/events';
import type { OfflineTerminal } from '../queue/offline-terminal-sale';
import { addressOf, knownOf, locQuery, parseJson, type Row } from './device-rows';

function tcpReachable(host: string, port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    const done = (v: boolean) => {
      s.destroy();
      resolve(v);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

export interface CounterTerminalDeps {
  client: GatewayClient;
  events: CoreEvents;
  locationId: string | undefined;
  /** Card-present sales while the gateway cannot be reached: the counter keeps its terminal for then. */
  offline?: Pick<OfflineTerminal, 'remember' | 'known'>;
}

/** The counter's terminal sale under way. */
export interface SaleUnderWay {
  ref: string;
  terminalId: string | null;
  cancelled: boolean;
}

export class CounterTerminal {
  status: TerminalStatus = { connection: 'none', terminalId: null, title: null, tipPercents: null };
  /** A sale (online or offline) or a card read to save is running on the terminal: it shows busy. */
  saleRunning = false;
  /** The counter's terminal sale under way, so Cancel reaches it even before it reached the terminal. */
  sale: SaleUnderWay | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: CounterTerminalDeps) {}

  /** Re-checks the status every `intervalMs` (0: never) until close(). */
  watch(intervalMs: number): void {
    this.timer = intervalMs > 0 ? setInterval(() => void this.refresh(), intervalMs) : undefined;
    this.timer?.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The location's terminals, with their application and manufacturer. */
  async rows(): Promise<Row[]> {
    const r = await this.deps.client.request<{ terminals: Row[] }>('GET', '/terminals', undefined, { ...locQuery(this.deps.locationId), page_size: 100, sort: 'created_ts', expand: 'terminal_application,terminal_manufacturer' });
    return r.terminals ?? [];
  }

  /** The terminal the counter uses: the location's first active one that has an address. */
  async current(): Promise<Row | undefined> {
    const t = (await this.rows()).find((x) => (x.active === true || x.active === 1) && addressOf(x) !== null);
    // ── Offline store-and-forward (issue 13): the counter keeps its terminal for when the gateway is away.
    this.deps.offline?.remember(t ? knownOf(t) : null);
    return t;
  }

  async refresh(): Promise<TerminalStatus> {
    const { client } = this.deps;
    let next: TerminalStatus;
    try {
      const t = await this.current();
      if (!t) next = { connection: 'none', terminalId: null, title: null, tipPercents: null };
      else {
        const addr = addressOf(t) as DeviceAddress;
        const mismatch = serialMismatchOf(String(t.serial_number ?? ''), typeof t.reported_serial_number === 'string' ? t.reported_serial_number : null);
        const base = { terminalId: String(t.id), title: String(t.title || t.serial_number), tipPercents: tipPercentsOf(parseJson(t.tip_percents)), ...(mismatch ? { serialMismatch: mismatch } : {}) };
        let busy = this.saleRunning;
        try {
          const st = await client.request<{ terminalstate: { busy: boolean } }>('GET', `/terminals/${String(t.id)}/state`);
          busy = busy || st.terminalstate.busy;
        } catch {
          /* a gateway without the extension: busy only while this counter sells */
        }
        const reachable = busy || (addr.kind === 'tcp' ? await tcpReachable(addr.host, addr.port) : existsSync(addr.path));
        next = { ...base, connection: busy ? 'busy' : reachable ? 'connected' : 'offline' };
      }
    } catch {
      // ── Offline store-and-forward (issue 13): the gateway is away, the terminal may not be; it still sells (offline).
      const k = this.deps.offline?.known();
      if (k) {
        const reachable = this.saleRunning || (k.address.kind === 'tcp' ? await tcpReachable(k.address.host, k.address.port) : existsSync(k.address.path));
        next = { terminalId: k.id, title: k.title, tipPercents: k.settings.tipPercents, connection: this.saleRunning ? 'busy' : reachable ? 'connected' : 'offline' };
      } else next = { ...this.status, connection: this.status.terminalId ? 'offline' : 'none' };
    }
    if (JSON.stringify(next) !== JSON.stringify(this.status)) {
      this.status = next;
      this.deps.events.emit('terminal:status', this.status);
    }
    return this.status;
  }
}
