/**
 * HTTPS to the store server, pinned to its own certificate (issue 24, point 2: no plain HTTP
 * between machines).
 *
 * - Before joining, the register knows only an address and a code: `readCertificate` connects
 *   without checking the certificate (rejectUnauthorized false), takes the certificate the server
 *   showed on that connection and answers it; store-join.ts goes on only when its fingerprint
 *   matches the code's (`codeMatchesCertificate`, store-code.ts). Nothing is sent on that
 *   connection but the hello.
 * - Once joined, every request trusts that one certificate and nothing else: `ca` is its PEM, and
 *   `checkServerIdentity` compares its SHA-256 fingerprint, so a host name or IP address that
 *   differs from the certificate's names does not matter (a back-office machine's address
 *   changes) but any other certificate — another CA's included — is refused.
 *
 * One keep-alive Agent per link (the push and pull loops reuse their connections); every
 * request has a timeout; the link tries the store's addresses in turn, starting from the one
 * that last answered, when a server is away (connection refused, reset, timed out, or a 5xx
 * from a server process that cannot reach its database).
 */
import { Agent, request, type RequestOptions } from 'node:https';
import type { PeerCertificate } from 'node:tls';
import type { StoreErrorBody } from '../../../shared/store/store-wire';
import { STORE_AUTH_SCHEME, WAITING_HEADER } from '../../../shared/store/store-wire';
import { certificateFingerprint } from '../../common/store-code';

/** Nothing answered (or a server answered that it cannot serve): the register keeps selling and tries again. */
export class StoreAwayError extends Error {
  constructor(readonly address: string, cause: string) {
    super(`The store server at ${address} did not answer: ${cause}`);
  }
}

/** The server answered with a refusal (4xx): its `{"errors": …}` sentences. */
export class StoreRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: StoreErrorBody | null,
  ) {
    super(firstSentence(body) ?? `The store server refused the request (HTTP ${status}).`);
  }
}

export function firstSentence(body: StoreErrorBody | null): string | null {
  const all = body?.errors ? Object.values(body.errors).flat() : [];
  return all.find((s) => typeof s === 'string') ?? null;
}

/** Default time a request may take (a long poll adds its wait). */
export const STORE_REQUEST_TIMEOUT_MS = 10_000;

/** `https://host:port` → what node:https needs (an IPv6 address without its brackets). */
function target(address: string): { host: string; port: number } {
  const u = new URL(address);
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || 443) };
}

const pemOf = (raw: Buffer) => `-----BEGIN CERTIFICATE-----\n${raw.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;

export interface ShownCertificate {
  pem: string;
  /** AA:BB:… (SHA-256), as certificateFingerprint writes it. */
  fingerprint: string;
  /** What GET /v1/hello answered (parsed JSON), for the server's name and version. */
  hello: unknown;
}

/** The certificate the server at `address` shows, before any trust (see the header), with its hello. */
export function readCertificate(address: string, helloPath: string, timeoutMs = STORE_REQUEST_TIMEOUT_MS): Promise<ShownCertificate> {
  return new Promise((resolve, reject) => {
    const req = request({ ...target(address), path: helloPath, method: 'GET', rejectUnauthorized: false, agent: false, timeout: timeoutMs }, (res) => {
      const peer = (res.socket as unknown as { getPeerCertificate(detailed: boolean): PeerCertificate }).getPeerCertificate(false);
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (!peer?.raw) return reject(new StoreAwayError(address, 'it showed no certificate'));
        let hello: unknown = null;
        try {
          hello = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // not a store server: the fingerprint check says so
        }
        resolve({ pem: pemOf(peer.raw), fingerprint: certificateFingerprint(peer.raw), hello });
      });
      res.on('error', (err) => reject(new StoreAwayError(address, err.message)));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => reject(new StoreAwayError(address, err.message)));
    req.end();
  });
}

export interface StoreLinkOptions {
  addresses: string[];
  certPem: string;
  /** The register's token (read per request: a join or a removal changes it). */
  token: () => string | null;
  /** Outbox rows waiting, sent with each request (the Registers screen shows it). */
  waiting?: () => number;
  timeoutMs?: number;
}

export interface StoreAnswer<T> {
  value: T;
  /** The address that answered. */
  address: string;
}

/** Requests to one store's servers, pinned to its certificate, over kept-alive connections. */
export class StoreLink {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });
  private addresses: string[];
  private current = 0;
  private readonly fingerprint: string;
  private readonly timeoutMs: number;
  /** Closed for good: a request cut by the close is not tried at the next address (a fresh long poll would hold the close up for its whole wait). */
  private closed = false;

  constructor(private readonly opts: StoreLinkOptions) {
    this.addresses = [...opts.addresses];
    this.fingerprint = certificateFingerprint(opts.certPem);
    this.timeoutMs = opts.timeoutMs ?? STORE_REQUEST_TIMEOUT_MS;
  }

  /** The address tried first (the one that last answered). */
  get address(): string | null {
    return this.addresses[this.current] ?? null;
  }

  /** The store's servers as it last listed them (a join answer, a server added). */
  setAddresses(list: string[]): void {
    const was = this.address;
    this.addresses = list.length > 0 ? [...list] : this.addresses;
    this.current = Math.max(0, was ? this.addresses.indexOf(was) : 0);
  }

  /**
   * One request, tried at each address in turn from the one that last answered; a refusal (4xx)
   * is the answer and is not tried elsewhere. `extraMs` lengthens the timeout (a long poll).
   */
  async send<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, extraMs = 0): Promise<StoreAnswer<T>> {
    let last: StoreAwayError | null = null;
    for (let i = 0; i < this.addresses.length && !this.closed; i++) {
      const at = (this.current + i) % this.addresses.length;
      const address = this.addresses[at]!;
      try {
        const value = await this.once<T>(address, method, path, body, this.timeoutMs + extraMs);
        this.current = at;
        return { value, address };
      } catch (err) {
        if (!(err instanceof StoreAwayError)) throw err;
        last = err;
      }
    }
    throw last ?? new StoreAwayError('(no address)', this.closed ? 'the link is closed' : 'the store has no address');
  }

  close(): void {
    this.closed = true;
    this.agent.destroy();
  }

  private once<T>(address: string, method: string, path: string, body: unknown, timeoutMs: number): Promise<T> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
    const token = this.opts.token();
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
      ...(token ? { authorization: `${STORE_AUTH_SCHEME} ${token}` } : {}),
      ...(this.opts.waiting ? { [WAITING_HEADER]: String(this.opts.waiting()) } : {}),
    };
    const options: RequestOptions = {
      ...target(address),
      path,
      method,
      headers,
      agent: this.agent,
      ca: this.opts.certPem,
      // The pinned certificate, whatever name or address it was reached by.
      checkServerIdentity: (_host, cert) => (cert.fingerprint256 === this.fingerprint ? undefined : new Error('the server showed another certificate than the store’s')),
      timeout: timeoutMs,
    };
    return new Promise<T>((resolve, reject) => {
      const req = request(options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => reject(new StoreAwayError(address, err.message)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : null;
          } catch {
            json = null;
          }
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve(json as T);
          if (status >= 500) return reject(new StoreAwayError(address, `HTTP ${status}`));
          reject(new StoreRefusal(status, json && typeof json === 'object' && 'errors' in json ? (json as StoreErrorBody) : null));
        });
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (err) => reject(new StoreAwayError(address, err.message)));
      req.end(payload);
    });
  }
}
