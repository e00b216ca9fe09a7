/**
 * How the SSO and hosted pages act for a signed-in user: they call the engine's own /v2
 * API in-process (fastify `inject`) with a one-request bearer token, so a contact is
 * saved and a sale is run by exactly the code, validation and money rules an API caller
 * gets (the payments module's routes and service), never a copy of them.
 * The tokens live in memory only, for one call, and are never handed out.
 */
import type { FastifyInstance } from 'fastify';
import { newToken } from './secrets';

export interface ApiReply {
  status: number;
  body: Record<string, unknown>;
}

export class InternalApi {
  private readonly live = new Map<string, string>();
  private app: FastifyInstance | undefined;

  constructor(private readonly developerId: () => string) {}

  attach(app: FastifyInstance): void {
    this.app = app;
  }

  /** The user id of a one-request token, if it is live. */
  userFor(token: string): string | undefined {
    return this.live.get(token);
  }

  async call(userId: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<ApiReply> {
    if (!this.app) throw new Error('internal API used before routes were registered');
    const token = newToken();
    this.live.set(token, userId);
    try {
      const res = await this.app.inject({
        method,
        url,
        headers: { host: '127.0.0.1', 'developer-id': this.developerId(), authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: payload === undefined ? undefined : JSON.stringify(payload),
      });
      let body: Record<string, unknown> = {};
      try {
        body = res.body ? (JSON.parse(res.body) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      return { status: res.statusCode, body };
    } finally {
      this.live.delete(token);
    }
  }
}

/** "Field: message" sentences from an error envelope. */
export function errorSentences(body: Record<string, unknown>): string {
  const errors = body.errors as Record<string, string[]> | undefined;
  if (!errors || typeof errors !== 'object') return 'the gateway refused the request.';
  return Object.values(errors)
    .flat()
    .map((m) => String(m))
    .join(' ');
}
