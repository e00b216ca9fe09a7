/**
 * Registered client applications: name, description, homepage and the whitelist of
 * redirect URLs, in exchange for a client id (UUID) and a client secret shown once
 * (stored as SHA-256). Used by the admin endpoint (`POST /v2/oauthclients`), the
 * `register-client` command and the sandbox client of the seed.
 */
import type { EngineContext } from '../framework/context';
import { ApiError, ErrorCollector, MSG } from '../framework/errors';
import { newId } from '../framework/ids';
import { OAUTH_MSG } from './oauth-messages';
import { matchesHash, newToken, sha256Hex } from './secrets';

export interface ClientInput {
  name: string;
  description?: string | null;
  homepage_url?: string | null;
  redirect_uris: string[];
}

export interface ClientRow {
  id: string;
  developer_company_id: string;
  secret_hash: string;
  name: string;
  description: string | null;
  homepage_url: string | null;
  redirect_uris: string;
  created_ts: number;
  modified_ts: number;
}

export interface RegisteredClient {
  client_id: string;
  client_secret: string;
}

function isWebUrl(v: string, allowQuery: boolean): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !v.includes('#') && (allowQuery || u.search === '');
  } catch {
    return false;
  }
}

/** Reads `{name, description, homepage_url, redirect_uris}` (or a `redirect_uri` string) and answers 422 on any mistake. */
export function readClientInput(body: unknown): ClientInput {
  const errs = new ErrorCollector();
  const b = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const text = (field: string, max: number, required: boolean): string | null => {
    const v = b[field];
    if (v === undefined || v === null || v === '') {
      if (required) errs.add(field, MSG.BLANK);
      return null;
    }
    if (typeof v !== 'string') {
      errs.add(field, MSG.NOT_STRING);
      return null;
    }
    if (v.length > max) {
      errs.add(field, MSG.TOO_LONG, { max });
      return null;
    }
    return v;
  };
  const name = text('name', 64, true);
  const description = text('description', 255, false);
  const homepage = text('homepage_url', 255, false);
  if (homepage !== null && !isWebUrl(homepage, true)) errs.add('homepage_url', OAUTH_MSG.HOMEPAGE_INVALID);
  // redirect_uri (one URL) stands in for redirect_uris; sent, it is checked like them.
  const single = b.redirect_uri;
  if (single !== undefined && single !== null && (typeof single !== 'string' || single.length > 2000 || !isWebUrl(single, true))) errs.add('redirect_uri', OAUTH_MSG.REDIRECT_INVALID);
  const raw = b.redirect_uris ?? (typeof single === 'string' ? [single] : undefined);
  const uris = Array.isArray(raw) ? raw : [];
  if (uris.length === 0 && !errs.has('redirect_uri')) errs.add('redirect_uris', OAUTH_MSG.REDIRECTS_REQUIRED);
  else if (uris.length > 20 || !uris.every((u) => typeof u === 'string' && u.length <= 2000 && isWebUrl(u, true))) {
    errs.add('redirect_uris', OAUTH_MSG.REDIRECT_INVALID);
  }
  errs.throwIfAny();
  return { name: name as string, description, homepage_url: homepage, redirect_uris: [...new Set(uris as string[])] };
}

/** What the registry needs: statements and the clock (the command runs it without a server). */
export type ClientsContext = Pick<EngineContext, 'stmt' | 'clock'>;

export class OAuthClients {
  constructor(private readonly ctx: ClientsContext) {}

  /** Inserts a client; `fixed` reuses a known id/secret (the seed's sandbox client after reset()). */
  register(developerId: string, input: ClientInput, fixed?: RegisteredClient): RegisteredClient {
    const id = fixed?.client_id ?? newId();
    const secret = fixed?.client_secret ?? newToken();
    const now = this.ctx.clock.now();
    this.ctx
      .stmt(`INSERT INTO oauth_clients (id, developer_company_id, secret_hash, name, description, homepage_url, redirect_uris, created_ts, modified_ts)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(id, developerId, sha256Hex(secret), input.name, input.description ?? null, input.homepage_url ?? null, JSON.stringify(input.redirect_uris), now, now);
    return { client_id: id, client_secret: secret };
  }

  get(id: unknown): ClientRow | undefined {
    if (typeof id !== 'string' || id.length > 64) return undefined;
    return this.ctx.stmt('SELECT * FROM oauth_clients WHERE id = ?').get(id) as ClientRow | undefined;
  }

  list(developerId: string): ClientRow[] {
    return this.ctx.stmt('SELECT * FROM oauth_clients WHERE developer_company_id = ? ORDER BY created_ts, id').all(developerId) as ClientRow[];
  }

  remove(id: string): boolean {
    return this.ctx.stmt('DELETE FROM oauth_clients WHERE id = ?').run(id).changes === 1;
  }

  /** The client if id and secret match (constant-time on the secret); else a 401 in the envelope. */
  authenticate(id: unknown, secret: unknown): ClientRow {
    const c = this.get(id);
    const ok = typeof secret === 'string' && matchesHash(secret, c?.secret_hash ?? '0'.repeat(64));
    if (!c || !ok) throw new ApiError(401, { client_secret: [OAUTH_MSG.CLIENT_AUTH_FAILED] });
    return c;
  }

  /**
   * Exact string match against the registered whitelist (no prefix or pattern matching),
   * except the port of a loopback IP literal: a native app's redirect listener on
   * http://127.0.0.1 takes whatever port is free, so any port matches (RFC 8252 §7.3);
   * scheme, host, path and query must still be identical.
   */
  static allows(c: ClientRow, redirectUri: unknown): redirectUri is string {
    if (typeof redirectUri !== 'string') return false;
    const registered = JSON.parse(c.redirect_uris) as string[];
    if (registered.includes(redirectUri)) return true;
    const asked = loopbackWithoutPort(redirectUri);
    return asked !== null && registered.some((r) => loopbackWithoutPort(r) === asked);
  }

  static serialize(c: ClientRow, origin: string): Record<string, unknown> {
    return {
      client_id: c.id,
      name: c.name,
      description: c.description,
      homepage_url: c.homepage_url,
      redirect_uris: JSON.parse(c.redirect_uris) as string[],
      created_ts: c.created_ts,
      modified_ts: c.modified_ts,
      _links: { self: { href: `${origin}/v2/oauthclients/${c.id}` } },
    };
  }
}

/** `http://127.0.0.1:PORT/path?query` without its port, exactly as written otherwise; null for anything else. */
function loopbackWithoutPort(uri: string): string | null {
  const m = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?(\/[^#]*)?$/.exec(uri);
  return m ? `http://${m[1]}${m[3] ?? ''}` : null;
}
