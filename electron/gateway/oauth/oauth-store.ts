/**
 * The state of the authorization-code flow, all in SQLite and all keyed by hashes:
 * authorization requests (the login/consent pages' CSRF binding), single-use codes,
 * token pairs, and the per-login wrong-password counter.
 *
 * Lifetimes (Unix seconds from the engine clock, so tests move time):
 * authorization request 10 min, code 5 min ("a few minutes"), access token 1 h; a
 * refresh token lives until revoked. A refresh keeps the refresh token and replaces
 * the access token (the old one stops working at once).
 */
import { randomUUID } from 'node:crypto';
import type { EngineContext } from '../framework/context';
import { ApiError } from '../framework/errors';
import { OAUTH_MSG } from './oauth-messages';
import { matchesHash, newToken, s256, sameText, sha256Hex } from './secrets';

export const REQUEST_TTL = 600;
export const CODE_TTL = 300;
export const ACCESS_TTL = 3600;
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW = 900;

export interface AuthRequestRow {
  id: string;
  client_id: string;
  redirect_uri: string;
  state: string | null;
  code_challenge: string | null;
  csrf_hash: string;
  browser_hash: string;
  user_id: string | null;
  stage: 'login' | 'consent';
  expires_ts: number;
}

export interface TokenPair {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
  user_id: string;
}

interface TokenRow {
  id: string;
  client_id: string;
  user_id: string;
  developer_company_id: string;
  access_expires_ts: number;
  refresh_hash: string;
  revoked: number;
}

const invalidGrant = (field: string, msg: string) => new ApiError(400, { [field]: [msg] });

export class OAuthStore {
  constructor(private readonly ctx: EngineContext) {}

  private now(): number {
    return this.ctx.clock.now();
  }

  /** Drops what has expired (called on each authorize/token request; cheap with the indexes). */
  sweep(): void {
    const now = this.now();
    this.ctx.stmt('DELETE FROM oauth_requests WHERE expires_ts < ?').run(now);
    this.ctx.stmt('DELETE FROM oauth_codes WHERE expires_ts < ?').run(now - CODE_TTL);
  }

  // ---- authorization requests (one per visit of /o/authrize)

  /** Creates a request; returns its id and the CSRF token and browser binding to hand out. */
  openRequest(clientId: string, redirectUri: string, state: string | null, codeChallenge: string | null): { id: string; csrf: string; browser: string } {
    const id = newToken();
    const csrf = newToken();
    const browser = newToken();
    this.ctx
      .stmt(`INSERT INTO oauth_requests (id, client_id, redirect_uri, state, code_challenge, csrf_hash, browser_hash, user_id, stage, expires_ts)
             VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 'login', ?)`)
      .run(sha256Hex(id), clientId, redirectUri, state, codeChallenge, sha256Hex(csrf), sha256Hex(browser), this.now() + REQUEST_TTL);
    return { id, csrf, browser };
  }

  /** The live request for a posted form, or a reason it is refused (expired/unknown vs forged). */
  findRequest(id: unknown, csrf: unknown, browser: string | undefined): { row: AuthRequestRow } | { error: 'expired' | 'csrf' } {
    if (typeof id !== 'string' || id.length > 100) return { error: 'expired' };
    const row = this.ctx.stmt('SELECT * FROM oauth_requests WHERE id = ?').get(sha256Hex(id)) as AuthRequestRow | undefined;
    if (!row || row.expires_ts < this.now()) return { error: 'expired' };
    if (typeof csrf !== 'string' || !matchesHash(csrf, row.csrf_hash)) return { error: 'csrf' };
    if (browser === undefined || !matchesHash(browser, row.browser_hash)) return { error: 'csrf' };
    return { row };
  }

  /** After a good password: the request moves to consent with a fresh CSRF token. */
  toConsent(row: AuthRequestRow, userId: string): string {
    const csrf = newToken();
    this.ctx.stmt("UPDATE oauth_requests SET user_id = ?, stage = 'consent', csrf_hash = ? WHERE id = ?").run(userId, sha256Hex(csrf), row.id);
    return csrf;
  }

  /** A request is answered once (allow or deny); false if it was already consumed. */
  closeRequest(row: AuthRequestRow): boolean {
    return this.ctx.stmt('DELETE FROM oauth_requests WHERE id = ?').run(row.id).changes === 1;
  }

  // ---- wrong-password limit, per login name (unknown names are limited too)

  lockedFor(loginKey: string): number {
    const r = this.ctx.stmt('SELECT failures, window_start_ts FROM oauth_login_failures WHERE login_key = ?').get(sha256Hex(loginKey)) as
      | { failures: number; window_start_ts: number }
      | undefined;
    if (!r) return 0;
    const left = r.window_start_ts + LOGIN_WINDOW - this.now();
    return r.failures >= LOGIN_MAX_FAILURES && left > 0 ? left : 0;
  }

  recordFailure(loginKey: string): void {
    const key = sha256Hex(loginKey);
    const now = this.now();
    this.ctx
      .stmt(`INSERT INTO oauth_login_failures (login_key, failures, window_start_ts) VALUES (?, 1, ?)
             ON CONFLICT (login_key) DO UPDATE SET
               failures = CASE WHEN window_start_ts + ? <= ? THEN 1 ELSE failures + 1 END,
               window_start_ts = CASE WHEN window_start_ts + ? <= ? THEN ? ELSE window_start_ts END`)
      .run(key, now, LOGIN_WINDOW, now, LOGIN_WINDOW, now, now);
  }

  clearFailures(loginKey: string): void {
    this.ctx.stmt('DELETE FROM oauth_login_failures WHERE login_key = ?').run(sha256Hex(loginKey));
  }

  // ---- codes

  issueCode(row: AuthRequestRow, userId: string): string {
    const code = newToken();
    this.ctx
      .stmt('INSERT INTO oauth_codes (code_hash, client_id, user_id, redirect_uri, code_challenge, expires_ts) VALUES (?, ?, ?, ?, ?, ?)')
      .run(sha256Hex(code), row.client_id, userId, row.redirect_uri, row.code_challenge, this.now() + CODE_TTL);
    return code;
  }

  /**
   * Exchanges a code once. A second use of the same code fails and revokes the pair the
   * first use made (RFC 6749 §4.1.2: a replayed code suggests it leaked).
   */
  exchangeCode(clientId: string, developerId: string, code: unknown, redirectUri: unknown, verifier: unknown): TokenPair {
    if (typeof code !== 'string' || code === '') throw invalidGrant('code', OAUTH_MSG.CODE_INVALID);
    // Errors are returned, not thrown, from the transaction so the revoke on reuse commits.
    const result = this.ctx.db.transaction((): TokenPair | ApiError => {
      const hash = sha256Hex(code);
      const row = this.ctx.stmt('SELECT * FROM oauth_codes WHERE code_hash = ?').get(hash) as
        | { client_id: string; user_id: string; redirect_uri: string; code_challenge: string | null; expires_ts: number; used: number; token_id: string | null }
        | undefined;
      if (!row || !sameText(row.client_id, clientId)) return invalidGrant('code', OAUTH_MSG.CODE_INVALID);
      if (row.used) {
        if (row.token_id) this.ctx.stmt('UPDATE oauth_tokens SET revoked = 1, modified_ts = ? WHERE id = ?').run(this.now(), row.token_id);
        return invalidGrant('code', OAUTH_MSG.CODE_INVALID);
      }
      if (row.expires_ts < this.now()) return invalidGrant('code', OAUTH_MSG.CODE_INVALID);
      if (redirectUri !== undefined && redirectUri !== '' && redirectUri !== row.redirect_uri) return invalidGrant('redirect_uri', OAUTH_MSG.REDIRECT_MISMATCH);
      if (row.code_challenge !== null) {
        if (typeof verifier !== 'string' || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || !sameText(s256(verifier), row.code_challenge)) {
          return invalidGrant('code_verifier', OAUTH_MSG.VERIFIER_INVALID);
        }
      }
      const pair = this.newPair(clientId, row.user_id, developerId);
      this.ctx.stmt('UPDATE oauth_codes SET used = 1, token_id = ? WHERE code_hash = ?').run(pair.id, hash);
      return pair.tokens;
    })();
    if (result instanceof ApiError) throw result;
    return result;
  }

  private newPair(clientId: string, userId: string, developerId: string): { id: string; tokens: TokenPair } {
    const id = randomUUID();
    const access = newToken();
    const refresh = newToken();
    const now = this.now();
    this.ctx
      .stmt(`INSERT INTO oauth_tokens (id, client_id, user_id, developer_company_id, access_hash, access_expires_ts, refresh_hash, revoked, created_ts, modified_ts)
             VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`)
      .run(id, clientId, userId, developerId, sha256Hex(access), now + ACCESS_TTL, sha256Hex(refresh), now, now);
    return { id, tokens: { access_token: access, token_type: 'bearer', expires_in: ACCESS_TTL, refresh_token: refresh, user_id: userId } };
  }

  /** New access token for an unrevoked refresh token of this client; the refresh token stays. */
  refresh(clientId: string, refreshToken: unknown): TokenPair {
    if (typeof refreshToken !== 'string' || refreshToken === '') throw invalidGrant('refresh_token', OAUTH_MSG.REFRESH_INVALID);
    const row = this.ctx.stmt('SELECT * FROM oauth_tokens WHERE refresh_hash = ?').get(sha256Hex(refreshToken)) as TokenRow | undefined;
    if (!row || row.revoked || !sameText(row.client_id, clientId)) throw invalidGrant('refresh_token', OAUTH_MSG.REFRESH_INVALID);
    const access = newToken();
    const now = this.now();
    this.ctx.stmt('UPDATE oauth_tokens SET access_hash = ?, access_expires_ts = ?, modified_ts = ? WHERE id = ?').run(sha256Hex(access), now + ACCESS_TTL, now, row.id);
    return { access_token: access, token_type: 'bearer', expires_in: ACCESS_TTL, refresh_token: refreshToken, user_id: row.user_id };
  }

  /** Revokes the pair holding this refresh (or access) token if it belongs to the client; unknown tokens are ignored (RFC 7009). */
  revoke(clientId: string, token: unknown): void {
    if (typeof token !== 'string' || token === '') return;
    const hash = sha256Hex(token);
    this.ctx
      .stmt('UPDATE oauth_tokens SET revoked = 1, modified_ts = ? WHERE (refresh_hash = ? OR access_hash = ?) AND client_id = ?')
      .run(this.now(), hash, hash, clientId);
  }

  /** Bearer → user id, if the access token is live, unrevoked and issued under this developer id. */
  userForAccessToken(token: string, developerId: string): string | undefined {
    if (token.length > 200) return undefined;
    const row = this.ctx.stmt('SELECT user_id, developer_company_id, access_expires_ts, revoked FROM oauth_tokens WHERE access_hash = ?').get(sha256Hex(token)) as
      | Pick<TokenRow, 'user_id' | 'developer_company_id' | 'access_expires_ts' | 'revoked'>
      | undefined;
    if (!row || row.revoked || row.access_expires_ts <= this.now() || !sameText(row.developer_company_id, developerId)) return undefined;
    return row.user_id;
  }
}
