/**
 * `gateway:connection`, `gateway:test`, `gateway:save`: the Gateway screen (managers).
 * A save tests the credentials first (a gateway that refuses them is not saved), keeps
 * the key in the SecretStore, records the change in the audit log (never the key) and
 * applies at the next start.
 */
import type { GatewayConnectionView, HandlerMap } from '../../shared/ipc/contract';
import { fail, ok } from '../../shared/result';
import type { GatewayAuth } from '../client/gateway-client';
import type { SecretStore } from '../secrets/secret-store';
import type { AuditLog } from './audit-log';
import { readSavedConnection, saveConnection, testConnection } from './gateway-connection';
import type { PosDatabase } from './pos-database';
import type { UserDirectory } from './users';

type Handlers = Pick<HandlerMap, 'gateway:connection' | 'gateway:test' | 'gateway:save'>;

interface Running {
  mode: 'embedded' | 'remote';
  baseUrl: string;
  fromEnvironment: boolean;
  auth: GatewayAuth;
}

export function createGatewayConnectionHandlers(deps: { db: PosDatabase; secrets: SecretStore; users: UserDirectory; audit: AuditLog; running: () => Running }): Handlers {
  const view = (): GatewayConnectionView => {
    const r = deps.running();
    const saved = readSavedConnection(deps.db);
    const savedView = saved ? { kind: saved.kind, baseUrl: saved.baseUrl ?? null, developerId: saved.developerId ?? null, userId: saved.userId ?? null } : null;
    const wanted = saved?.kind ?? 'embedded';
    const restartNeeded = !r.fromEnvironment && (wanted !== r.mode || (wanted === 'remote' && saved?.baseUrl?.replace(/\/+$/, '') !== r.baseUrl));
    return {
      mode: r.mode,
      baseUrl: r.baseUrl,
      fromEnvironment: r.fromEnvironment,
      developerId: r.mode === 'remote' ? r.auth.developerId : null,
      userId: r.mode === 'remote' ? r.auth.userId : null,
      authMethod: 'api-key',
      saved: savedView,
      restartNeeded,
    };
  };
  return {
    'gateway:connection': async () => {
      const s = deps.users.require('manager');
      return s.ok ? ok(view()) : s;
    },
    'gateway:test': async (c) => {
      const s = deps.users.require('manager');
      if (!s.ok) return s;
      return ok(await testConnection(c.baseUrl, { developerId: c.developerId, userId: c.userId, userApiKey: c.userApiKey }));
    },
    'gateway:save': async (c) => {
      const s = deps.users.require('manager');
      if (!s.ok) return s;
      if (c.kind === 'remote') {
        const t = await testConnection(c.baseUrl, { developerId: c.developerId, userId: c.userId, userApiKey: c.userApiKey });
        if (!t.ok) return fail('invalid', t.message);
        await saveConnection(deps.db, deps.secrets, { kind: 'remote', baseUrl: c.baseUrl.replace(/\/+$/, ''), developerId: c.developerId, userId: c.userId }, c.userApiKey);
        deps.audit.record({ kind: 'settings-change', user: s.value.user, detail: `gateway: remote ${c.baseUrl} as user ${c.userId} (from the next start)` });
      } else {
        await saveConnection(deps.db, deps.secrets, { kind: 'embedded' });
        deps.audit.record({ kind: 'settings-change', user: s.value.user, detail: 'gateway: the embedded engine (from the next start)' });
      }
      return ok(view());
    },
  };
}
