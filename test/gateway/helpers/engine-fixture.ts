/**
 * Test fixture: a real engine on port 0 with a temporary data folder, and a tiny
 * fetch-based client. No mocks: real SQLite, real HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngine, type RunningEngine } from '../../../electron/gateway/engine';
import { MovableClock } from '../../../electron/gateway/framework/clock';
import type { EngineOptions } from '../../../electron/gateway/framework/context';

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
  headers: Headers;
}

export interface Creds {
  developerId: string;
  userId: string;
  apiKey: string;
}

export interface CallOptions {
  creds?: Creds | null;
  headers?: Record<string, string>;
  /** Raw body text (sent as is). */
  raw?: string;
  contentType?: string;
  timeoutMs?: number;
}

function parseOrUndefined(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export class TestEngine {
  private constructor(
    readonly engine: RunningEngine,
    readonly dataDir: string,
    readonly clock: MovableClock,
  ) {}

  static async start(opts: Partial<EngineOptions> & { dataDir?: string } = {}): Promise<TestEngine> {
    const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'ringup-gw-'));
    const clock = (opts.clock as MovableClock | undefined) ?? new MovableClock();
    const engine = await startEngine({ ...opts, dataDir, port: 0, clock });
    return new TestEngine(engine, dataDir, clock);
  }

  get creds(): Creds {
    const c = this.engine.credentials;
    return { developerId: c.developer_id, userId: c.user_id, apiKey: c.user_api_key };
  }

  get locationId(): string {
    return this.engine.credentials.location_id;
  }

  url(path: string): string {
    return this.engine.baseUrl + path;
  }

  async call(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<ApiAnswer> {
    const creds = opts.creds === undefined ? this.creds : opts.creds;
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (creds) {
      headers['developer-id'] = creds.developerId;
      headers['user-id'] = creds.userId;
      headers['user-api-key'] = creds.apiKey;
    }
    let payload: string | undefined = opts.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
    const res = await fetch(path.startsWith('http') ? path : this.url(path), {
      method,
      headers,
      body: payload,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    return { status: res.status, body: parseOrUndefined(text), text, headers: res.headers };
  }

  get = (path: string, opts?: CallOptions) => this.call('GET', path, undefined, opts);
  post = (path: string, body?: unknown, opts?: CallOptions) => this.call('POST', path, body, opts);
  put = (path: string, body?: unknown, opts?: CallOptions) => this.call('PUT', path, body, opts);
  del = (path: string, opts?: CallOptions) => this.call('DELETE', path, undefined, opts);

  async close(removeData = true): Promise<void> {
    await this.engine.close();
    if (removeData) rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** Expects the error envelope and returns the messages of `field`. */
export function errorsOf(a: ApiAnswer, field = 'general'): string[] {
  const errs = (a.body as { errors?: Record<string, string[]> } | undefined)?.errors;
  if (!errs) throw new Error(`no error envelope in ${a.status} ${a.text.slice(0, 300)}`);
  return errs[field] ?? [];
}
