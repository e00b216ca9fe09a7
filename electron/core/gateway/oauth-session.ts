/**
 * The app's OAuth 2.0 tokens for one gateway account: the authorization-code exchange,
 * refresh and revoke against the gateway's /o/token and /o/revoke (as the engine
 * implements them: form bodies, client id and secret in the body), and the token source
 * the gateway client asks for a Bearer token. Tokens (and the client secret) live only in
 * the SecretStore and in this object; they never reach the renderer.
 *
 * The access token is refreshed `REFRESH_MARGIN_MS` before it expires, and once more when
 * the gateway answers 401 anyway (a clock skew, a server-side revoke of the access token);
 * concurrent requests share one refresh. Simplification: no PKCE (the engine's flow does
 * not require it and the client secret stays in the main process).
 */
import { randomBytes } from 'node:crypto';
import type { SecretStore } from '../../secrets/secret-store';
import type { TokenSource } from '../../client/gateway-client';

export const OAUTH_SESSION_SECRET = 'oauth-session';
export const REFRESH_MARGIN_MS = 60_000;

export interface OAuthClientConfig {
  /** Origin of the gateway's /o/… pages and endpoints. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  /** Unix ms when the access token expires. */
  expiresAt: number;
  userId: string;
}

/** A refused or failed token call; `status` 0 when the gateway did not answer. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'OAuthError';
  }
}

export const newState = (): string => randomBytes(24).toString('base64url');

/** The gateway's authorize page for this sign-in. */
export function authorizeUrl(cfg: Pick<OAuthClientConfig, 'authUrl' | 'clientId'>, redirectUri: string, state: string): string {
  const q = new URLSearchParams({ response_type: 'code', client_id: cfg.clientId, redirect_uri: redirectUri, scope: 'api', state });
  return `${cfg.authUrl.replace(/\/+$/, '')}/o/authrize?${q}`;
}

async function post(cfg: OAuthClientConfig, path: '/o/token' | '/o/revoke', params: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const body = new URLSearchParams({ ...params, client_id: cfg.clientId, client_secret: cfg.clientSecret });
  let res: Response;
  try {
    res = await fetch(`${cfg.authUrl.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new OAuthError(0, 'The gateway did not answer.');
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed };
}

function tokenSet(status: number, body: unknown, now: number): TokenSet {
  const b = body as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown; user_id?: unknown; errors?: Record<string, string[]> } | undefined;
  if (status !== 200 || typeof b?.access_token !== 'string' || typeof b.refresh_token !== 'string') {
    const first = b?.errors ? Object.values(b.errors)[0]?.[0] : undefined;
    throw new OAuthError(status, first ?? `The gateway refused the sign-in (HTTP ${status}).`);
  }
  const expiresIn = typeof b.expires_in === 'number' ? b.expires_in : Number(b.expires_in ?? 3600);
  return { accessToken: b.access_token, refreshToken: b.refresh_token, expiresAt: now + expiresIn * 1000, userId: String(b.user_id ?? '') };
}

export async function exchangeCode(cfg: OAuthClientConfig, code: string, state: string, redirectUri: string, now = Date.now()): Promise<TokenSet> {
  const r = await post(cfg, '/o/token', { grant_type: 'authorization_code', code, state, redirect_uri: redirectUri });
  return tokenSet(r.status, r.body, now);
}

export async function refreshTokens(cfg: OAuthClientConfig, refreshToken: string, now = Date.now()): Promise<TokenSet> {
  const r = await post(cfg, '/o/token', { grant_type: 'refresh_token', refresh_token: refreshToken, state: newState() });
  return tokenSet(r.status, r.body, now);
}

/** POST /o/revoke: 204 kills the pair. */
export async function revokeToken(cfg: OAuthClientConfig, token: string): Promise<void> {
  const r = await post(cfg, '/o/revoke', { token });
  if (r.status !== 204 && r.status !== 200) throw new OAuthError(r.status, `The gateway did not revoke the sign-in (HTTP ${r.status}).`);
}

interface Stored extends TokenSet {
  authUrl: string;
  clientId: string;
  clientSecret: string;
}

/** One signed-in gateway account: the current token pair, refreshed as needed and kept in the SecretStore. */
export class OAuthSession implements TokenSource {
  private tokens: TokenSet | null;
  private refreshing: Promise<boolean> | null = null;
  private refused = false;

  constructor(
    readonly config: OAuthClientConfig,
    tokens: TokenSet,
    private readonly secrets: SecretStore,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = tokens;
  }

  get userId(): string {
    return this.tokens?.userId ?? '';
  }

  get signedIn(): boolean {
    return this.tokens !== null;
  }

  /** The gateway refused the refresh token (revoked, or the client removed): no more refreshes until a new sign-in. */
  get refreshRefused(): boolean {
    return this.refused;
  }

  /** Writes this session to the SecretStore (the one place tokens are kept). */
  async save(): Promise<void> {
    if (!this.tokens) return;
    const s: Stored = { ...this.tokens, ...this.config };
    await this.secrets.set(OAUTH_SESSION_SECRET, Buffer.from(JSON.stringify(s), 'utf8'));
  }

  /** The saved session; `config` overrides what was saved (the embedded engine's origin changes with its port). */
  static async load(secrets: SecretStore, config: Partial<OAuthClientConfig> = {}, now: () => number = Date.now): Promise<OAuthSession | undefined> {
    const raw = await secrets.get(OAUTH_SESSION_SECRET);
    if (!raw) return undefined;
    try {
      const s = JSON.parse(raw.toString('utf8')) as Stored;
      return new OAuthSession({ authUrl: s.authUrl, clientId: s.clientId, clientSecret: s.clientSecret, ...config }, { accessToken: s.accessToken, refreshToken: s.refreshToken, expiresAt: s.expiresAt, userId: s.userId }, secrets, now);
    } catch {
      return undefined;
    }
  }

  /** A Bearer token valid for at least the margin (refreshing first when needed); '' once signed out. */
  async accessToken(): Promise<string> {
    if (this.tokens && this.tokens.expiresAt - this.now() <= REFRESH_MARGIN_MS) await this.refreshNow();
    return this.tokens?.accessToken ?? '';
  }

  /**
   * Refreshes the pair now (one refresh for all callers at once); false when it did not
   * work. A refusal is final (the health probe must not ask /o/token every two seconds with a
   * dead token); a gateway that did not answer is asked again next time.
   */
  refreshNow(stale?: string): Promise<boolean> {
    // Another request's refresh already replaced the token that got the 401: just send again.
    if (stale !== undefined && this.tokens && !this.refused && this.tokens.accessToken !== stale && !this.refreshing) return Promise.resolve(true);
    this.refreshing ??= (async () => {
      const current = this.tokens;
      if (!current || this.refused) return false;
      try {
        this.tokens = await refreshTokens(this.config, current.refreshToken, this.now());
        await this.save();
        return true;
      } catch (err) {
        if (err instanceof OAuthError && err.status >= 400 && err.status < 500) this.refused = true;
        return false;
      }
    })().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /** Sign-out: revoke the pair at the gateway (best effort when it cannot be reached), forget the tokens and delete them from the store. */
  async revoke(): Promise<{ revoked: boolean }> {
    const t = this.tokens;
    this.tokens = null;
    await this.secrets.delete(OAUTH_SESSION_SECRET);
    if (!t) return { revoked: false };
    try {
      await revokeToken(this.config, t.refreshToken);
      return { revoked: true };
    } catch {
      return { revoked: false };
    }
  }
}
