/**
 * Runs the embedded engine in its own process and keeps it running: if the process
 * dies it is restarted with backoff (250 ms doubling to 10 s; back to 250 ms once a
 * child has stayed up for a minute), on the same port and data folder, so the core's
 * gateway client — which reaches the engine only over HTTP — needs no change. The
 * state (starting / ok / restarting / stopped) feeds the status bar.
 *
 * How the process is made is the caller's business (`SpawnEngine`): the core process forks it
 * with child_process (`forkEngine`), in the app as in the node host.
 * Simplification: if the port is taken by someone else while the engine is down, the
 * restart keeps retrying that port (the base URL never changes under the client).
 */
import { fork } from 'node:child_process';
import type { EngineCredentials } from '../../gateway/engine';
import type { FromEngine, ToEngine } from '../../gateway/engine-process-protocol';

/** One engine process as the supervisor sees it, whatever made it. */
export interface EngineProcess {
  readonly pid: number | undefined;
  send(msg: ToEngine): void;
  onMessage(fn: (msg: FromEngine) => void): void;
  onExit(fn: (code: number | null) => void): void;
  kill(): void;
}

export type SpawnEngine = () => EngineProcess;
export type EngineState = 'starting' | 'ok' | 'restarting' | 'stopped';

export const ENGINE_BACKOFF = { firstMs: 250, maxMs: 10_000, stableMs: 60_000, readyTimeoutMs: 60_000 } as const;
export const ENGINE_MESSAGES = {
  startFailed: 'The gateway engine could not start: {reason}',
  readyTimeout: 'The gateway engine did not start in time.',
} as const;

/**
 * child_process.fork of the built engine entry, from the core process. The child inherits
 * stdout/stderr for its log lines. In the app the core runs in Electron's utilityProcess, whose
 * process.execPath is Electron's binary: ELECTRON_RUN_AS_NODE makes it plain Node for the engine
 * (a utilityProcess cannot fork another; core-process/core-child.ts says why this way).
 */
export function forkEngine(entry: string): SpawnEngine {
  const env = process.versions.electron ? { ...process.env, ELECTRON_RUN_AS_NODE: '1' } : process.env;
  return () => {
    const child = fork(entry, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [], serialization: 'json', env });
    return {
      get pid() {
        return child.pid;
      },
      send: (msg) => {
        if (child.connected) child.send(msg);
      },
      onMessage: (fn) => child.on('message', (m) => fn(m as FromEngine)),
      onExit: (fn) => child.once('exit', (code) => fn(code)),
      kill: () => child.kill('SIGKILL'),
    };
  };
}

export interface SupervisorOptions {
  spawn: SpawnEngine;
  dataDir: string;
  /** 0 picks a free port on the first start; restarts reuse the port it got. */
  port: number;
  vaultKey?: Buffer;
  onState?: (state: EngineState) => void;
  onLog?: (line: string) => void;
}

export class EngineSupervisor {
  private child: EngineProcess | undefined;
  private port: number;
  private delayMs: number = ENGINE_BACKOFF.firstMs;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stableTimer: ReturnType<typeof setTimeout> | undefined;
  private _state: EngineState = 'starting';
  private _restarts = 0;

  constructor(private readonly opts: SupervisorOptions) {
    this.port = opts.port;
  }

  get state(): EngineState {
    return this._state;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How many times the engine was restarted after dying. */
  get restarts(): number {
    return this._restarts;
  }

  private setState(s: EngineState): void {
    if (s === this._state) return;
    this._state = s;
    this.opts.onState?.(s);
  }

  /** Starts the first engine; resolves with its credentials, rejects if it cannot start. */
  async start(): Promise<EngineCredentials> {
    try {
      return await this.launch();
    } catch (err) {
      // The first start failing is the caller's error to report, not something to retry forever.
      await this.stop();
      throw err;
    }
  }

  private launch(): Promise<EngineCredentials> {
    return new Promise((resolve, reject) => {
      const child = this.opts.spawn();
      this.child = child;
      let ready = false;
      const readyTimer = setTimeout(() => {
        if (!ready) child.kill();
        reject(new Error(ENGINE_MESSAGES.readyTimeout));
      }, ENGINE_BACKOFF.readyTimeoutMs);
      child.onMessage((msg) => {
        if (msg.type === 'ready' && !ready) {
          ready = true;
          clearTimeout(readyTimer);
          this.port = Number(new URL(msg.credentials.base_url).port);
          this.setState('ok');
          this.stableTimer = setTimeout(() => (this.delayMs = ENGINE_BACKOFF.firstMs), ENGINE_BACKOFF.stableMs);
          this.stableTimer.unref?.();
          resolve(msg.credentials);
        } else if (msg.type === 'failed') {
          this.opts.onLog?.(ENGINE_MESSAGES.startFailed.replace('{reason}', msg.message));
          if (!ready) reject(new Error(ENGINE_MESSAGES.startFailed.replace('{reason}', msg.message)));
        }
      });
      child.onExit((code) => {
        clearTimeout(readyTimer);
        if (this.stableTimer) clearTimeout(this.stableTimer);
        if (this.child !== child) return;
        this.child = undefined;
        if (this._state === 'stopped') return;
        if (!ready) reject(new Error(ENGINE_MESSAGES.startFailed.replace('{reason}', `exit code ${code}`)));
        if (this._state === 'starting') return;
        this.opts.onLog?.(`gateway engine exited (code ${code}); restarting in ${this.delayMs} ms`);
        this.scheduleRestart();
      });
      child.send({ type: 'start', dataDir: this.opts.dataDir, port: this.port, ...(this.opts.vaultKey ? { vaultKey: this.opts.vaultKey.toString('base64') } : {}) });
    });
  }

  private scheduleRestart(): void {
    this.setState('restarting');
    const delay = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, ENGINE_BACKOFF.maxMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this._state === 'stopped') return;
      this._restarts++;
      // A failed restart exits, and its exit schedules the next try.
      this.launch().catch(() => {});
    }, delay);
  }

  /** Stops the engine (asks it to close its database cleanly; kills it after 5 s). */
  async stop(): Promise<void> {
    this.setState('stopped');
    if (this.timer) clearTimeout(this.timer);
    if (this.stableTimer) clearTimeout(this.stableTimer);
    const child = this.child;
    if (!child) return;
    await new Promise<void>((resolve) => {
      const kill = setTimeout(() => child.kill(), 5_000);
      child.onExit(() => {
        clearTimeout(kill);
        resolve();
      });
      child.send({ type: 'stop' });
    });
    this.child = undefined;
  }
}
