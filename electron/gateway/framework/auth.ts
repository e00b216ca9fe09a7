/**
 * Per-request authentication for /v2: `developer-id` + `user-id` + `user-api-key`
 * as headers, or the same names as query parameters, or HTTP Basic `user_id:user_api_key`
 * (with developer-id still as a header or query parameter). The developer id must be
 * the engine's developer company; the user must be active.
 *
 * Lookups are cached in memory (key: the three values) and the cache is dropped on any
 * change to users, keys, memberships or locations, so the hot path is one Map lookup.
 * API keys are stored as SHA-256 hashes and compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from './errors';
import type { AuthInfo } from './context';
import type { Db, Statement } from './database';
import type { Row } from './resource';

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** Resolves a Bearer token to a user id (the OAuth module installs one). */
export type BearerResolver = (token: string, developerId: string) => string | undefined;

function one(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[v.length - 1] === 'string') return v[v.length - 1] as string;
  return undefined;
}

export interface RawCredentials {
  developerId?: string;
  userId?: string;
  apiKey?: string;
  bearer?: string;
}

export function readCredentials(req: FastifyRequest): RawCredentials {
  const h = req.headers;
  const q = (req.query ?? {}) as Record<string, unknown>;
  const out: RawCredentials = {
    developerId: one(h['developer-id']) ?? one(q['developer-id']),
    userId: one(h['user-id']) ?? one(q['user-id']),
    apiKey: one(h['user-api-key']) ?? one(q['user-api-key']),
  };
  const authz = h.authorization;
  if (typeof authz === 'string') {
    const [scheme, value] = authz.split(' ', 2);
    if (scheme?.toLowerCase() === 'basic' && value) {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i > 0) {
        out.userId = decoded.slice(0, i);
        out.apiKey = decoded.slice(i + 1);
      }
    } else if (scheme?.toLowerCase() === 'bearer' && value) {
      out.bearer = value;
    }
  }
  return out;
}

export class Authenticator {
  private readonly cache = new Map<string, AuthInfo>();
  private readonly userStmt: Statement;
  private readonly devStmt: Statement;
  private readonly locStmt: Statement;
  private readonly directStmt: Statement;
  bearer: BearerResolver | undefined;

  constructor(db: Db) {
    this.userStmt = db.prepare('SELECT * FROM users WHERE id = ?');
    this.devStmt = db.prepare('SELECT id FROM developer_companies WHERE id = ?');
    this.directStmt = db.prepare('SELECT location_id FROM user_locations WHERE user_id = ? ORDER BY location_id');
    this.locStmt = db.prepare(`WITH RECURSIVE visible(id) AS (
        SELECT location_id FROM user_locations WHERE user_id = ?
        UNION SELECT l.id FROM locations l JOIN visible v ON l.parent_id = v.id)
      SELECT id FROM visible ORDER BY id`);
  }

  invalidate(): void {
    this.cache.clear();
  }

  authenticate(req: FastifyRequest): AuthInfo {
    const c = readCredentials(req);
    if (!c.developerId) throw unauthorized();
    let userId = c.userId;
    if (c.bearer !== undefined) {
      userId = this.bearer?.(c.bearer, c.developerId);
      if (!userId) throw unauthorized();
      return this.load(c.developerId, userId, undefined, `b\0${c.developerId}\0${c.bearer}`);
    }
    if (!userId || !c.apiKey) throw unauthorized();
    return this.load(c.developerId, userId, c.apiKey, `k\0${c.developerId}\0${userId}\0${c.apiKey}`);
  }

  private load(developerId: string, userId: string, apiKey: string | undefined, cacheKey: string): AuthInfo {
    const hit = this.cache.get(cacheKey);
    if (hit) return hit;
    if (!this.devStmt.get(developerId)) throw unauthorized();
    const user = this.userStmt.get(userId) as Row | undefined;
    if (!user || user.status_id !== 1) throw unauthorized();
    if (apiKey !== undefined) {
      const stored = user.user_api_key_hash;
      if (typeof stored !== 'string') throw unauthorized();
      const a = Buffer.from(hashApiKey(apiKey), 'hex');
      const b = Buffer.from(stored, 'hex');
      if (a.length !== b.length || !timingSafeEqual(a, b)) throw unauthorized();
    }
    const locationIds = (this.locStmt.all(userId) as { id: string }[]).map((r) => r.id);
    const directLocationIds = (this.directStmt.all(userId) as { location_id: string }[]).map((r) => r.location_id);
    const info: AuthInfo = {
      userId,
      developerId,
      user,
      locationIds,
      locationSet: new Set(locationIds),
      directLocationIds,
      locationsJson: JSON.stringify(locationIds),
    };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(cacheKey, info);
    return info;
  }
}
