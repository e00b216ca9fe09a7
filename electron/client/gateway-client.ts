/**
 * Typed client for the v2 gateway. It points at the embedded engine by default or at
 * any remote base_url; nothing in it knows which. Credentials stay in the main process.
 */
export interface GatewayAuth {
  developerId: string;
  userId: string;
  userApiKey: string;
  /**
   * OAuth 2.0 sign-in instead of the key: requests carry `Authorization: Bearer` (with
   * developer-id) from this source; a 401 makes it refresh once and the request is retried.
   */
  tokens?: TokenSource;
}

/** Where a Bearer token comes from (core/gateway/oauth-session.ts). */
export interface TokenSource {
  /** A token valid for a while yet (refreshed before it expires); '' when signed out. */
  accessToken(): Promise<string>;
  /**
   * Refresh now (after a 401); false when the gateway refused. `stale` is the token that got
   * the 401: when another request has already replaced it, there is nothing to refresh.
   */
  refreshNow(stale?: string): Promise<boolean>;
}

import type {
  V2AccountVault,
  V2AccountVaultCreate,
  V2Batch,
  V2Contact,
  V2BatchFilters,
  V2Errors,
  V2ListMeta,
  V2Location,
  V2Terminal,
  V2Transaction,
  V2User,
  V2UserCreate,
  V2TransactionCreate,
  V2TransactionFilters,
} from './v2-types';

import { NodeHttpTransport } from './node-http-transport';

export type { GatewayHealth } from '../../shared/ipc/core';
import type { GatewayHealth } from '../../shared/ipc/core';

/** The health probe gives up after this long (or the request timeout, if shorter): a hung gateway shows as unreachable within one probe. */
export const HEALTH_PROBE_TIMEOUT_MS = 2_000;

/**
 * A v2 call that did not succeed. `status` is 0 when no HTTP answer came; then
 * `errors.general[0]` says why: `unreachable`, `timeout` or `lost` (see networkFailure). `errors` is the gateway's error envelope, or a synthetic `general`
 * entry; the message never carries the request body (it may hold card data).
 */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly errors: V2Errors,
  ) {
    super(`gateway answered ${status || 'nothing'}`);
    this.name = 'GatewayError';
  }
}

/** The most records listAllTransactions gathers for one total (a batch, a day). */
export const LIST_ALL_MAX_RECORDS = 200_000;

/** A list longer than the caller may total: said, never silently cut (guarded-call.ts answers it in plain words). */
export class TooManyRecordsError extends Error {
  constructor(readonly max: number) {
    super(`more than ${max} records`);
    this.name = 'TooManyRecordsError';
  }
}

export interface ListPage<T> {
  items: T[];
  meta: V2ListMeta;
}

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
  /**
   * Credentials for this request instead of `auth`, when it answers any: the core sends a
   * cashier's requests with the engine user of the cashier role (role-credentials.ts), so
   * the gateway itself refuses what a cashier may not do.
   */
  authFor?: () => GatewayAuth | undefined;
  /** Per-request timeout, ms (default 10 s; shorter in tests). */
  timeoutMs?: number;
  /**
   * `node-http`: node:http(s) with a keep-alive agent instead of fetch (node-http-transport.ts),
   * for the offline queue's forwarding, where the client's cost per request sets the pace.
   * The health probe keeps fetch.
   */
  transport?: 'fetch' | 'node-http';
  /**
   * Trust only this certificate (PEM) for an https base URL: the store's shared gateway, served
   * behind the store server's own certificate (issue 24). Such a client always goes over node:https.
   */
  pinnedCertPem?: string;
}

export class GatewayClient {
  readonly baseUrl: string;
  private readonly auth: GatewayAuth;
  private readonly authFor: (() => GatewayAuth | undefined) | undefined;
  private readonly timeoutMs: number;
  private readonly nodeHttp: NodeHttpTransport | undefined;
  private readonly pinned: boolean;

  constructor(opts: GatewayClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.auth = opts.auth;
    this.authFor = opts.authFor;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.pinned = opts.pinnedCertPem !== undefined;
    this.nodeHttp = opts.transport === 'node-http' || opts.pinnedCertPem ? new NodeHttpTransport(opts.pinnedCertPem) : undefined;
  }

  /**
   * One v2 request. Resolves with the parsed body of a 2xx answer; rejects with a
   * GatewayError otherwise. Bodies are JSON both ways.
   */
  async request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, query?: Record<string, string | number | undefined>): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const auth = this.authFor?.() ?? this.auth;
    let sentWith: string | undefined;
    const send = async (): Promise<{ status: number; text(): Promise<string> }> => {
      const headers = await this.headers(auth);
      sentWith = bearerOf(headers);
      const sent = { method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, body: body === undefined ? null : JSON.stringify(body) };
      if (this.nodeHttp) {
        const answer = await this.nodeHttp.send(url, { ...sent, timeoutMs: this.timeoutMs });
        return { status: answer.status, text: async () => answer.text };
      }
      return fetch(url, { ...sent, signal: AbortSignal.timeout(this.timeoutMs) });
    };
    let res: { status: number; text(): Promise<string> };
    try {
      res = await send();
      // A Bearer token the gateway no longer takes: refresh once and send again (a 401 is never a processed request).
      if (res.status === 401 && auth.tokens && (await auth.tokens.refreshNow(sentWith))) {
        await res.text();
        res = await send();
      }
    } catch (err) {
      throw new GatewayError(0, { general: [networkFailure(err)] });
    }
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    if (res.status < 200 || res.status > 299) {
      const errors = (parsed as { errors?: unknown } | undefined)?.errors;
      throw new GatewayError(res.status, isErrors(errors) ? errors : { general: [`HTTP ${res.status}`] });
    }
    return parsed as T;
  }

  /** POST /v2/transactions: sale or refund. A declined sale is still a 201 with status_id 301. */
  async createTransaction(body: V2TransactionCreate): Promise<V2Transaction> {
    const r = await this.request<{ transaction: V2Transaction }>('POST', '/transactions', { transaction: body });
    return r.transaction;
  }

  /** PUT /v2/transactions/{id} with an action: `void`, or `edit` (e.g. notification_email_address). */
  async updateTransaction(id: string, body: { action: 'void' } | { action: 'edit'; notification_email_address?: string; tip_amount?: string }): Promise<V2Transaction> {
    const r = await this.request<{ transaction: V2Transaction }>('PUT', `/transactions/${encodeURIComponent(id)}`, { transaction: body });
    return r.transaction;
  }

  async voidTransaction(id: string): Promise<V2Transaction> {
    return this.updateTransaction(id, { action: 'void' });
  }

  async getTransaction(id: string): Promise<V2Transaction> {
    const r = await this.request<{ transaction: V2Transaction }>('GET', `/transactions/${encodeURIComponent(id)}`);
    return r.transaction;
  }

  /** GET /v2/transactions/{id}?expand=… (transaction_level3, transaction_batch, previous_transaction …). */
  async getTransactionExpanded(id: string, expand: readonly string[]): Promise<V2Transaction> {
    const r = await this.request<{ transaction: V2Transaction }>('GET', `/transactions/${encodeURIComponent(id)}`, undefined, { expand: expand.join(',') });
    return r.transaction;
  }

  /** POST /v2/transactionlevel3s: replaces all earlier Level 3 data of the transaction. */
  async saveLevel3(transactionId: string, data: unknown): Promise<{ id: string; level3_data: unknown }> {
    const r = await this.request<{ transactionlevel3: { id: string; level3_data: unknown } }>('POST', '/transactionlevel3s', { transactionlevel3: { transaction_id: transactionId, level3_data: data } });
    return r.transactionlevel3;
  }

  /** GET /v2/transactions/{transaction_api_id}?location_id=…&api_id=true */
  async getTransactionByApiId(apiId: string, locationId: string): Promise<V2Transaction> {
    const r = await this.request<{ transaction: V2Transaction }>('GET', `/transactions/${encodeURIComponent(apiId)}`, undefined, {
      location_id: locationId,
      api_id: 'true',
    });
    return r.transaction;
  }

  /**
   * The transaction sent with this transaction_api_id, or null when the gateway has none
   * (GET /v2/transactions?transaction_api_id=…, the interface's own idempotency lookup).
   * Rejects with a GatewayError when the gateway cannot be asked.
   */
  async findByApiId(apiId: string, locationId?: string): Promise<V2Transaction | null> {
    const { items } = await this.listTransactions({ transaction_api_id: apiId, ...(locationId ? { location_id: locationId } : {}) }, 1, 10);
    return items.find((t) => t.transaction_api_id === apiId) ?? null;
  }

  /** One page of GET /v2/transactions (page is 1-based, page_size at most 5000). */
  async listTransactions(filters: V2TransactionFilters, page = 1, pageSize = 5000, sort = '-created_ts'): Promise<ListPage<V2Transaction>> {
    const r = await this.request<{ transactions?: V2Transaction[]; meta?: V2ListMeta }>('GET', '/transactions', undefined, {
      ...filters,
      page,
      page_size: pageSize,
      sort,
    });
    return { items: r.transactions ?? [], meta: r.meta ?? {} };
  }

  /**
   * Every page of a transaction list. More than `max` records is refused with a
   * TooManyRecordsError, never cut short: a total of part of the records would be a wrong
   * total shown as a right one.
   */
  async listAllTransactions(filters: V2TransactionFilters, max = LIST_ALL_MAX_RECORDS): Promise<V2Transaction[]> {
    const out: V2Transaction[] = [];
    for (let page = 1; ; page++) {
      const { items, meta } = await this.listTransactions(filters, page, 5000);
      const total = meta.pagination?.totalCount;
      if ((total !== undefined && total > max) || out.length + items.length > max) throw new TooManyRecordsError(max);
      out.push(...items);
      const pageCount = meta.pagination?.pageCount;
      if (items.length < 5000 || (pageCount !== undefined && page >= pageCount)) break;
    }
    return out;
  }

  /** One page of GET /v2/transactionbatches. */
  async listBatches(filters: V2BatchFilters, page = 1, pageSize = 50, sort = '-created_ts'): Promise<ListPage<V2Batch>> {
    const r = await this.request<{ transactionbatches?: V2Batch[]; meta?: V2ListMeta }>('GET', '/transactionbatches', undefined, {
      ...filters,
      page,
      page_size: pageSize,
      sort,
    });
    return { items: r.transactionbatches ?? [], meta: r.meta ?? {} };
  }

  async getBatch(id: string): Promise<V2Batch> {
    const r = await this.request<{ transactionbatch: V2Batch }>('GET', `/transactionbatches/${encodeURIComponent(id)}`);
    return r.transactionbatch;
  }

  /** POST /v2/transactionbatches/{id}/settle. A refused settle is still a 200: processing_status_id 3 says so. */
  async settleBatch(id: string): Promise<V2Batch> {
    const r = await this.request<{ transactionbatch: V2Batch }>('POST', `/transactionbatches/${encodeURIComponent(id)}/settle`);
    return r.transactionbatch;
  }

  async listVaults(query: Record<string, string>, pageSize = 500): Promise<V2AccountVault[]> {
    const r = await this.request<{ accountvaults?: V2AccountVault[] }>('GET', '/accountvaults', undefined, { ...query, page_size: pageSize });
    return r.accountvaults ?? [];
  }

  async getVault(id: string): Promise<V2AccountVault> {
    return (await this.request<{ accountvault: V2AccountVault }>('GET', `/accountvaults/${encodeURIComponent(id)}`)).accountvault;
  }

  /** POST /v2/accountvaults: the number goes to the gateway and is dropped here. */
  async createVault(body: V2AccountVaultCreate): Promise<V2AccountVault> {
    return (await this.request<{ accountvault: V2AccountVault }>('POST', '/accountvaults', { accountvault: body })).accountvault;
  }

  async updateVault(id: string, body: { exp_date?: string; title?: string }): Promise<V2AccountVault> {
    return (await this.request<{ accountvault: V2AccountVault }>('PUT', `/accountvaults/${encodeURIComponent(id)}`, { accountvault: body })).accountvault;
  }

  async deleteVault(id: string): Promise<void> {
    await this.request<unknown>('DELETE', `/accountvaults/${encodeURIComponent(id)}`);
  }

  async listContacts(query: Record<string, string>, pageSize = 200): Promise<V2Contact[]> {
    const r = await this.request<{ contacts?: V2Contact[] }>('GET', '/contacts', undefined, { ...query, page_size: pageSize });
    return r.contacts ?? [];
  }

  async createContact(body: { location_id: string; first_name?: string; last_name: string; email?: string }): Promise<V2Contact> {
    return (await this.request<{ contact: V2Contact }>('POST', '/contacts', { contact: body })).contact;
  }

  /** Who these credentials are (GET /users/me); a 2xx that is not a v2 answer is a GatewayError too. */
  async me(): Promise<V2User> {
    const r = await this.request<{ user?: V2User } | undefined>('GET', '/users/me');
    if (!r?.user) throw new GatewayError(200, { general: ['not a v2 answer'] });
    return r.user;
  }

  async createUser(body: V2UserCreate): Promise<V2User> {
    return (await this.request<{ user: V2User }>('POST', '/users', { user: body })).user;
  }

  async listTerminals(locationId: string): Promise<V2Terminal[]> {
    const r = await this.request<{ terminals?: V2Terminal[] }>('GET', '/terminals', undefined, { location_id: locationId, page_size: 50 });
    return r.terminals ?? [];
  }

  async getLocation(id: string): Promise<V2Location> {
    const r = await this.request<{ location: V2Location }>('GET', `/locations/${encodeURIComponent(id)}`);
    return r.location;
  }

  private async headers(auth: GatewayAuth = this.authFor?.() ?? this.auth): Promise<Record<string, string>> {
    if (auth.tokens) return { authorization: `Bearer ${await auth.tokens.accessToken()}`, 'developer-id': auth.developerId, accept: 'application/json' };
    return {
      'developer-id': auth.developerId,
      'user-id': auth.userId,
      'user-api-key': auth.userApiKey,
      accept: 'application/json',
    };
  }

  /** Reachability probe: GET /users/me. 200: ok; 401/403: there, but refusing our credentials; anything else or no answer: unreachable. */
  async health(): Promise<HealthReport> {
    const started = performance.now();
    const auth = this.authFor?.() ?? this.auth;
    let sentWith: string | undefined;
    const probe = async () => {
      const headers = await this.headers(auth);
      sentWith = bearerOf(headers);
      const timeoutMs = Math.min(this.timeoutMs, HEALTH_PROBE_TIMEOUT_MS);
      // A pinned client probes over its own transport (fetch would not trust the pinned certificate).
      if (this.nodeHttp && this.pinned) {
        const a = await this.nodeHttp.send(new URL(`${this.baseUrl}/users/me`), { method: 'GET', headers, body: null, timeoutMs });
        return { ok: a.status >= 200 && a.status < 300, status: a.status };
      }
      const r = await fetch(`${this.baseUrl}/users/me`, { headers, signal: AbortSignal.timeout(timeoutMs) });
      await r.arrayBuffer();
      return r;
    };
    try {
      let res = await probe();
      if (res.status === 401 && auth.tokens && (await auth.tokens.refreshNow(sentWith))) res = await probe();
      return {
        health: res.ok ? 'ok' : res.status === 401 || res.status === 403 ? 'refused' : 'unreachable',
        latencyMs: Math.round(performance.now() - started),
        checkedAt: Date.now(),
        status: res.status,
      };
    } catch {
      return { health: 'unreachable', latencyMs: null, checkedAt: Date.now() };
    }
  }
}

/**
 * Why no answer came: `unreachable` when the request surely never left (connection
 * refused, no such host), `timeout` when it timed out, `lost` when the connection broke
 * after it may have been sent. Only `unreachable` proves a sale was not made.
 */
export function networkFailure(err: unknown): 'unreachable' | 'timeout' | 'lost' {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'timeout';
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  // fetch puts the socket's error in `cause`; node:http (node-http-transport.ts) throws it as is.
  const code = cause?.code ?? (err as { code?: unknown } | null)?.code;
  if (cause?.message === 'bad port') return 'unreachable'; // fetch refuses some ports before connecting
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' ? 'unreachable' : 'lost';
}

const bearerOf = (headers: Record<string, string>): string | undefined => headers.authorization?.slice('Bearer '.length);

function isErrors(v: unknown): v is V2Errors {
  return (
    typeof v === 'object' &&
    v !== null &&
    Object.values(v).every((m) => Array.isArray(m) && m.every((x) => typeof x === 'string'))
  );
}
