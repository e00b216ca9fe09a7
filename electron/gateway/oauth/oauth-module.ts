/**
 * The OAuth 2.0 and single sign-on module (issue 11, engine side): authorization-code
 * flow at /o/authrize, /o/token, /o/revoke; Bearer tokens on /v2 (with developer-id);
 * client registration (`POST /v2/oauthclients` and the `register-client` command); SSO
 * links at /custom/sso and /custom/contactsso landing on the hosted pages (/hosted/…).
 *
 * Seed (first start, reset(), and once for a data folder made before this module): a
 * sandbox client "Ringup Sandbox" (redirect http://127.0.0.1:8765/oauth/callback), a
 * login password for the seeded admin, and the developer encryption key (32 random
 * bytes). Like the seed user's api key, they stay in engine_meta (sealed under the
 * app's key when embedded: framework/engine-meta.ts) so the standalone engine can write
 * credentials.json again; the tables only hold hashes.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { EngineContext, EngineModule, SeedInfo } from '../framework/context';
import { readMeta, writeMeta } from '../framework/engine-meta';
import { ApiError, notFound } from '../framework/errors';
import { newId, newSecret } from '../framework/ids';
import { keepsDigits } from '../framework/card-mask';
import { loadSeedInfo } from '../merchant/seed';
import { hashPassword } from '../merchant/passwords';
import { ADMINS } from '../framework/permissions';
import { registerAuthorizeRoutes } from './authorize-routes';
import { addFormParser } from './form-params';
import { HostedSessions } from './hosted-sessions';
import { registerHostedPages } from './hosted-pages';
import { InternalApi } from './internal-api';
import { OAuthClients, readClientInput, type RegisteredClient } from './oauth-clients';
import { OAUTH_MIGRATIONS } from './oauth-migrations';
import { oauthOpenApi } from './oauth-openapi';
import { OAuthStore } from './oauth-store';
import { registerSsoRoutes } from './sso-routes';
import { registerTokenRoutes } from './token-routes';

export const OAUTH_META_KEY = 'oauth_seed';
export const SANDBOX_CLIENT_NAME = 'Ringup Sandbox';
export const SANDBOX_REDIRECT_URI = 'http://127.0.0.1:8765/oauth/callback';

export interface OAuthSeed {
  client: RegisteredClient;
  redirect_uri: string;
  password: string;
  developer_encryption_key: string;
}

/** A password that passes the user password rule (letters and digits). */
const newPassword = (): string => `Rg${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}7`;

export function createOAuthModule(): EngineModule & { clients(): OAuthClients; store(): OAuthStore } {
  let ctx: EngineContext | undefined;
  let clients: OAuthClients | undefined;
  let store: OAuthStore | undefined;
  let devId = '';
  const developerId = () => devId;
  const api = new InternalApi(developerId);

  const loadSeed = (c: EngineContext): OAuthSeed | undefined => {
    return readMeta<OAuthSeed>(c, OAUTH_META_KEY);
  };

  /** Creates (or re-creates after reset) the sandbox client, the admin's password and the encryption key. */
  const ensureSeed = (c: EngineContext, seed: SeedInfo): OAuthSeed => {
    devId = seed.developerId;
    const known = loadSeed(c);
    const s: OAuthSeed = known ?? {
      client: { client_id: newId(), client_secret: randomBytes(32).toString('base64url') },
      redirect_uri: SANDBOX_REDIRECT_URI,
      password: newPassword(),
      developer_encryption_key: newSecret(32),
    };
    c.db.transaction(() => {
      if (!known) writeMeta(c, OAUTH_META_KEY, s);
      if (!c.stmt('SELECT 1 FROM oauth_clients WHERE id = ?').get(s.client.client_id)) {
        new OAuthClients(c).register(seed.developerId, { name: SANDBOX_CLIENT_NAME, description: 'The standalone engine’s sandbox client.', homepage_url: null, redirect_uris: [s.redirect_uri] }, s.client);
      }
      const user = c.stmt('SELECT password_hash FROM users WHERE id = ?').get(seed.userId) as { password_hash: string | null } | undefined;
      if (user && !user.password_hash) c.stmt('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(s.password), seed.userId);
    })();
    return s;
  };

  return {
    name: 'oauth',
    migrations: OAUTH_MIGRATIONS,
    clients: () => clients as OAuthClients,
    store: () => store as OAuthStore,

    init(c) {
      ctx = c;
      clients = new OAuthClients(c);
      store = new OAuthStore(c);
      const seed = loadSeedInfo(c);
      if (seed) devId = seed.developerId;
    },

    seed(c, seed) {
      ensureSeed(c, seed);
    },

    openapi: oauthOpenApi,

    resolveBearer(token, developerIdOfRequest) {
      return api.userFor(token) ?? store?.userForAccessToken(token, developerIdOfRequest);
    },

    credentials(c, seed) {
      const s = ensureSeed(c, seed);
      return {
        auth_url: c.origin,
        oauth: { client_id: s.client.client_id, client_secret: s.client.client_secret, redirect_uri: s.redirect_uri },
        login: { domain: 'ringup.localhost', username: 'admin', password: s.password },
        developer_encryption_key: s.developer_encryption_key,
      };
    },

    routes(app: FastifyInstance, c) {
      const cl = clients as OAuthClients;
      const st = store as OAuthStore;
      const sessions = new HostedSessions(c);
      api.attach(app);

      // Client registration: admin users of the developer company (a client signs users in as themselves).
      // Card numbers (framework/card-mask.ts): redirect URLs are matched exactly later, so they are
      // identifiers; the name, description and homepage are free text.
      const admins = { config: { allow: ADMINS, keepsDigits: keepsDigits('oauthclient', { redirect_uris: 'identifier' }) } };
      app.post('/v2/oauthclients', admins, async (req, reply) => {
        const body = req.body as Record<string, unknown> | undefined;
        const wrapped = body && typeof body === 'object' ? body.oauthclient : undefined;
        if (!wrapped || typeof wrapped !== 'object') throw new ApiError(422, { oauthclient: ['Oauthclient cannot be blank.'] });
        const made = cl.register(req.auth.developerId, readClientInput(wrapped));
        const row = cl.get(made.client_id);
        return reply.code(201).send({ oauthclient: { ...OAuthClients.serialize(row as NonNullable<typeof row>, c.origin), client_secret: made.client_secret } });
      });
      app.get('/v2/oauthclients', admins, async (req) => {
        return { oauthclients: cl.list(req.auth.developerId).map((r) => OAuthClients.serialize(r, c.origin)) };
      });
      app.get<{ Params: { id: string } }>('/v2/oauthclients/:id', admins, async (req) => {
        const row = cl.get(req.params.id);
        if (!row || row.developer_company_id !== req.auth.developerId) throw notFound();
        return { oauthclient: OAuthClients.serialize(row, c.origin) };
      });
      app.delete<{ Params: { id: string } }>('/v2/oauthclients/:id', admins, async (req, reply) => {
        const row = cl.get(req.params.id);
        if (!row || row.developer_company_id !== req.auth.developerId) throw notFound();
        c.db.transaction(() => {
          c.stmt('UPDATE oauth_tokens SET revoked = 1 WHERE client_id = ?').run(row.id);
          cl.remove(row.id);
        })();
        return reply.code(204).send();
      });

      // The browser-facing routes accept HTML forms: their parser lives only in this plugin.
      void app.register(async (child) => {
        addFormParser(child);
        registerAuthorizeRoutes(child, c, st, cl, developerId);
        registerTokenRoutes(child, st, cl, developerId);
        registerSsoRoutes(child, { ctx: c, api, sessions, developerId, encryptionKey: () => (ctx ? loadSeed(ctx)?.developer_encryption_key : undefined) });
        registerHostedPages(child, c, api, sessions);
      });
    },
  };
}
