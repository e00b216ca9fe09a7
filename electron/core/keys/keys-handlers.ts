/**
 * `keys:*`: the Key backup section of the System screen (managers). Writes and restores
 * backups in `<data>/backups/` (key-backup.ts). Both are audited by the channel rules (keys.ts
 * declares it); a restore refused for a wrong passphrase or file is audited here, as a wrong
 * PIN is where it is tried. A restore takes effect at the next start: the engine received its
 * vault key when it started.
 */
import type { HandlerMap } from '../../../shared/ipc/contract';
import { fail, ok } from '../../../shared/result';
import type { SecretStore } from '../../secrets/secret-store';
import type { AuditLog } from '../audit/audit-log';
import { backupsDir, exportKeys, KeyBackupError, listBackups, restoreKeys, type RestoreMerge } from './key-backup';
import { callerSession } from '../../ipc/channel-rules';
import { AWAITING_KEYS_MESSAGE } from '../gateway/sealed-gateway';

export const KEYS_MESSAGES = {
  restored: 'The keys are restored. Close Ringup and start it again to use them.',
} as const;

type KeysHandlers = Pick<HandlerMap, 'keys:backups' | 'keys:export' | 'keys:restore'>;

export function createKeysHandlers(deps: {
  dataDir: string;
  secrets: SecretStore | undefined;
  names: readonly string[];
  /** Secrets a restore joins with this register's own rather than overwrites (key-backup.ts). */
  merge?: RestoreMerge;
  audit: AuditLog;
  /** A copied engine folder waits for its keys (electron/core/gateway/sealed-gateway.ts). */
  awaitingKeys?: boolean;
}): KeysHandlers {
  const { dataDir, audit } = deps;
  const noStore = fail('not_configured', 'This counter keeps no keys of its own (it uses a remote gateway).');
  const asFailure = (err: unknown) => {
    if (err instanceof KeyBackupError) return fail('invalid', err.message);
    throw err;
  };
  return {
    'keys:backups': async () => {
      return ok({ folder: backupsDir(dataDir), backups: listBackups(dataDir), awaitingKeys: deps.awaitingKeys ? AWAITING_KEYS_MESSAGE : null });
    },
    'keys:export': async ({ passphrase }) => {
      if (!deps.secrets) return noStore;
      try {
        const fileName = await exportKeys({ dataDir, secrets: deps.secrets, names: deps.names, passphrase });
        return ok({ fileName, folder: backupsDir(dataDir) });
      } catch (err) {
        return asFailure(err);
      }
    },
    'keys:restore': async ({ fileName, passphrase }) => {
      if (!deps.secrets) return noStore;
      try {
        const names = await restoreKeys({ dataDir, secrets: deps.secrets, fileName, passphrase, ...(deps.merge ? { merge: deps.merge } : {}) });
        return ok({ restored: names.length, message: KEYS_MESSAGES.restored });
      } catch (err) {
        const { id, name } = callerSession().user;
        audit.record({ kind: 'keys-backup', user: { id, name }, detail: `restore from ${fileName} refused` });
        return asFailure(err);
      }
    },
  };
}
