/**
 * `npm run store -- --database postgres://… [--port 7443] [--host 0.0.0.0] [--name "Store name"]
 *   [--engine [--engine-data DIR]] [--json]`
 *
 * Starts a store server process: migrates the database, makes the store's certificate on the
 * first start, listens over HTTPS and prints where, the certificate's fingerprint and, while the
 * store has no register yet, a setup code for its first register (a new one each start).
 * `--json` prints one line instead: {url, addresses, fingerprint, setupCode, engine}.
 * Run it on as many machines as you like against one database: they serve the same store.
 *
 * Default host 0.0.0.0: a back-office machine serves the shop's network (the registers pin the
 * certificate, so nothing travels in clear); `--host 127.0.0.1` keeps it on this machine.
 */
import { resolve } from 'node:path';
import { argFlag, argPort, argValue, closeOnSignals } from '../common/cli-args';
import { groupCode } from '../common/store-code';
import { openStorePool, migrateStore } from './store-database';
import { DEFAULT_ENGINE_DATA, startStoreGateway } from './store-engine';
import { loadStoreIdentity, machineAddresses } from './store-identity';
import { makeSetupCode } from './store-registers';
import { httpsAddress, startStoreServer } from './store-server';

export const DEFAULT_STORE_PORT = 7443;

/** Where registers reach a process listening on `host`: every address of the machine for 0.0.0.0 (IPv4 first, loopback last). */
function addressesFor(host: string, port: number): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [httpsAddress(host, port)];
  const ips = machineAddresses().filter((a) => host === '::' || !a.includes(':'));
  return [...ips, '127.0.0.1'].map((ip) => httpsAddress(ip, port));
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const databaseUrl = argValue(argv, 'database') ?? process.env.RINGUP_STORE_DATABASE;
  if (!databaseUrl) throw new Error('Give the store\'s database: --database postgres://user@host:5432/ringup_store (or RINGUP_STORE_DATABASE).');
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error('--database is a PostgreSQL URL: postgres://user@host:5432/database.');
  const host = argValue(argv, 'host') ?? '0.0.0.0';
  const port = argPort(argv) ?? DEFAULT_STORE_PORT;
  const json = argFlag(argv, 'json');
  const name = argValue(argv, 'name')?.trim().slice(0, 80) || undefined;

  const pool = openStorePool(databaseUrl);
  const migrated = await migrateStore(pool);
  const identity = await loadStoreIdentity(pool, name);
  const gateway = argFlag(argv, 'engine') ? await startStoreGateway(resolve(argValue(argv, 'engine-data') ?? DEFAULT_ENGINE_DATA)) : undefined;
  const server = await startStoreServer({ pool, databaseUrl, identity, host, port, addresses: (p) => addressesFor(host, p), ...(gateway ? { gateway } : {}) });
  const setupCode = await makeSetupCode(pool, identity.fingerprint);
  closeOnSignals(async () => {
    await server.close();
    await pool.end();
  });

  const engine = gateway ? { baseUrl: `${server.url}/gateway/v2`, ...gateway.credentials } : null;
  if (json) {
    console.log(JSON.stringify({ url: server.url, addresses: server.addresses, fingerprint: identity.fingerprint, setupCode: setupCode ? groupCode(setupCode) : null, engine }));
    return;
  }
  const lines = [
    `Store server for “${identity.name}” listening at ${server.addresses.join(', ')}`,
    `Certificate fingerprint (SHA-256): ${identity.fingerprint}`,
    migrated.from === migrated.to ? `Database schema at version ${migrated.to}.` : `Database schema migrated from version ${migrated.from} to ${migrated.to}.`,
  ];
  if (engine) lines.push(`Shared gateway engine at ${engine.baseUrl} (data: ${resolve(argValue(argv, 'engine-data') ?? DEFAULT_ENGINE_DATA)})`);
  if (setupCode) {
    lines.push(
      '',
      `Setup code for the store's first register: ${groupCode(setupCode)}`,
      'On that register: Manage → Registers, fill in “Connect this register to a store server” with an address above and this code.',
      'A new code is printed at each start until the first register has joined.',
    );
  }
  console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(`The store server could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
