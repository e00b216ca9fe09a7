/**
 * Typed client for the v2 gateway. It points at the embedded engine by default or at
 * any remote base_url; nothing in it knows which. Credentials stay in the main process.
 */
export interface GatewayAuth {
  developerId: string;
  userId: string;
  userApiKey: string;
}

export type GatewayHealth = 'ok' | 'unreachable' | 'starting';

export interface HealthReport {
  health: GatewayHealth;
  latencyMs: number | null;
  checkedAt: number;
  /** HTTP status of the probe when the gateway answered. */
  status?: number;
}

export interface GatewayClientOptions {
  baseUrl: string;
  auth: GatewayAuth;
  /** Per-request timeout, ms. */
  timeoutMs?: number;
}

export class GatewayClient {
  readonly baseUrl: string;
  private readonly auth: GatewayAuth;
  private readonly timeoutMs: number;

  constructor(opts: GatewayClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.auth = opts.auth;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  private headers(): Record<string, string> {
    return {
      'developer-id': this.auth.developerId,
      'user-id': this.auth.userId,
      'user-api-key': this.auth.userApiKey,
      accept: 'application/json',
    };
  }

  /** Reachability probe: GET /users/me. Any HTTP answer means the gateway is there; 200 means we are signed in. */
  async health(): Promise<HealthReport> {
    const started = performance.now();
    try {
      const res = await fetch(`${this.baseUrl}/users/me`, {
        headers: this.headers(),
        signal: AbortSignal.timeout(Math.min(this.timeoutMs, 5_000)),
      });
      await res.arrayBuffer();
      return {
        health: res.ok ? 'ok' : 'unreachable',
        latencyMs: Math.round(performance.now() - started),
        checkedAt: Date.now(),
        status: res.status,
      };
    } catch {
      return { health: 'unreachable', latencyMs: null, checkedAt: Date.now() };
    }
  }
}
