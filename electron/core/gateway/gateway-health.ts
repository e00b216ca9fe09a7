/**
 * Whether the gateway answers, as the status bar and `core:status` show it (moved out of
 * app-core.ts so that file only assembles the slices). One probe at a time: the next starts
 * `intervalMs` after the last one ended, so a hung gateway makes a probe last its 2 s timeout
 * and no more pile up. The engine supervisor's word wins while the engine's process is down;
 * once it is back, the probe looks at once. A copy of another register's data folder probes
 * nothing: its gateway is refused, by this core.
 */
import type { CoreStatus } from '../../../shared/ipc/contract';
import type { GatewayClient } from '../../client/gateway-client';
import type { EngineState } from './engine-supervisor';

type GatewayStatus = CoreStatus['gateway'];

export interface GatewayHealthDeps {
  client: Pick<GatewayClient, 'health'>;
  /** The status as the run starts (mode, address, how it signs in). */
  initial: Omit<GatewayStatus, 'health' | 'latencyMs' | 'checkedAt' | 'signedOut'>;
  copy: boolean;
  intervalMs: number;
  /** The engine's process is being brought back (its supervisor says so). */
  restarting: () => boolean;
  /** The status changed: the shells hear it. */
  onChange: () => void;
  /** The gateway answered: whatever waits in the offline queue may go now. */
  onAnswering: () => void;
}

export class GatewayHealth {
  private state: GatewayStatus;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly deps: GatewayHealthDeps) {
    this.state = { ...deps.initial, health: deps.copy ? 'refused' : 'starting', latencyMs: null, checkedAt: Date.now(), signedOut: false };
  }

  get status(): GatewayStatus {
    return this.state;
  }

  async check(): Promise<GatewayStatus> {
    if (this.deps.copy) return this.state;
    const report = await this.deps.client.health();
    if (this.deps.restarting()) report.health = 'restarting';
    const changed = report.health !== this.state.health;
    this.state = { ...this.state, health: report.health, latencyMs: report.latencyMs, checkedAt: report.checkedAt };
    if (changed) this.deps.onChange();
    if (report.health === 'ok') this.deps.onAnswering();
    return this.state;
  }

  /** The supervisor's word while the engine process is down; once it is back, probe at once. */
  engineState(s: EngineState): void {
    if (s === 'restarting' && this.state.health !== 'restarting') {
      this.state = { ...this.state, health: 'restarting', latencyMs: null, checkedAt: Date.now() };
      this.deps.onChange();
    } else if (s === 'ok') void this.check();
  }

  /** A manager signed this run out of the gateway: it refuses until Ringup starts again. */
  signedOut(): void {
    this.state = { ...this.state, signedOut: true };
    this.deps.onChange();
    void this.check();
  }

  /** The first probe, then one every interval (0 disables the timer). */
  async start(): Promise<void> {
    await this.check();
    this.schedule();
  }

  stop(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.closed || this.deps.intervalMs <= 0) return;
    this.timer = setTimeout(() => void this.check().finally(() => this.schedule()), this.deps.intervalMs);
    this.timer.unref();
  }
}
