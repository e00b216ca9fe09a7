/**
 * `gateway:connection`, `gateway:test`, `gateway:save`: the Gateway screen (managers).
 * A save tests the credentials first (a gateway that refuses them is not saved), keeps
 * the key in the SecretStore and applies at the next start. Managers only, and audited (never
 * the key): gateway.ts declares both, the channel rules enforce them.
 */
import type { GatewayAuthMethod, GatewayConnectionView, HandlerMap } from '../../../shared/ipc/contract';
import { fail, ok } from '../../../shared/result';
import type { GatewayAuth } from '../../client/gateway-client';
import type { SecretStore } from '../../secrets/secret-store';
import type { AccountTarget } from './account-change-guard';
import { readSavedConnection, saveConnection, testConnection } from './gateway-connection';
import type { PosDatabase } from '../platform/pos-database';

type Handlers = Pick<HandlerMap, 'gateway:connection' | 'gateway:test' | 'gateway:save'>;

interface Running {
  mode: 'embedded' | 'remote';
  baseUrl: string;
  fromEnvironment: boolean;
  auth: GatewayAuth;
  /** This run was signed out of the gateway (gateway:sign-out). */
  signedOut?: boolean;
}

/** How a run (or a saved choice) signs in: OAuth tokens, a remote API key, or the embedded engine's own keys. */
export function authMethodOf(mode: 'embedded' | 'remote', auth: GatewayAuth | { tokens?: unknown } | 'oauth' | 'api-key' | undefined): GatewayAuthMethod {
  if (auth === 'oauth' || (typeof auth === 'object' && auth.tokens)) return 'oauth';
  return mode === 'embedded' ? 'engine-keys' : 'api-key';
}

/** What the Gateway screen shows: the connection of this run and the saved choice. */
export function connectionView(db: PosDatabase, r: Running): GatewayConnectionView {
  const saved = readSavedConnection(db);
  const savedView = saved
    ? { kind: saved.kind, auth: authMethodOf(saved.kind, saved.auth), baseUrl: saved.baseUrl ?? null, developerId: saved.developerId ?? null, userId: saved.userId ?? null, clientId: saved.clientId ?? null }
    : null;
  const wanted = saved?.kind ?? 'embedded';
  const authMethod = authMethodOf(r.mode, r.auth);
  const restartNeeded =
    !r.fromEnvironment &&
    (wanted !== r.mode ||
      (wanted === 'remote' && saved?.baseUrl?.replace(/\/+$/, '') !== r.baseUrl) ||
      (savedView?.auth ?? 'engine-keys') !== authMethod ||
      (authMethod === 'oauth' && savedView?.userId !== r.auth.userId));
  return {
    mode: r.mode,
    baseUrl: r.baseUrl,
    fromEnvironment: r.fromEnvironment,
    developerId: r.mode === 'remote' || authMethod === 'oauth' ? r.auth.developerId : null,
    userId: r.mode === 'remote' || authMethod === 'oauth' ? r.auth.userId : null,
    authMethod,
    saved: savedView,
    restartNeeded,
    signedOut: r.signedOut ?? false,
  };
}

export function createGatewayConnectionHandlers(deps: {
  db: PosDatabase;
  secrets: SecretStore;
  running: () => Running;
  /** A saved change of gateway or key ends any OAuth sign-in (revoked) and the previous account's records. */
  leaveOAuth?: () => Promise<void>;
  /** The sentence that holds back a change to another account now (account-change-guard.ts), or null. */
  refuseAccountChange?: (target: AccountTarget) => string | null;
}): Handlers {
  const view = (): GatewayConnectionView => connectionView(deps.db, deps.running());
  return {
    'gateway:connection': async () => ok(view()),
    'gateway:test': async (c) => {
      return ok(await testConnection(c.baseUrl, { developerId: c.developerId, userId: c.userId, userApiKey: c.userApiKey }));
    },
    'gateway:save': async (c) => {
      // Before the test: open money of the account in use holds any change of account back.
      const refusal = deps.refuseAccountChange?.(c.kind === 'remote' ? { kind: 'remote', baseUrl: c.baseUrl, userId: c.userId } : { kind: 'embedded' });
      if (refusal) return fail('invalid', refusal);
      if (c.kind === 'remote') {
        const t = await testConnection(c.baseUrl, { developerId: c.developerId, userId: c.userId, userApiKey: c.userApiKey });
        if (!t.ok) return fail('invalid', t.message);
        await deps.leaveOAuth?.();
        await saveConnection(deps.db, deps.secrets, { kind: 'remote', baseUrl: c.baseUrl.replace(/\/+$/, ''), developerId: c.developerId, userId: c.userId }, c.userApiKey);
      } else {
        await deps.leaveOAuth?.();
        await saveConnection(deps.db, deps.secrets, { kind: 'embedded' });
      }
      return ok(view());
    },
  };
}
