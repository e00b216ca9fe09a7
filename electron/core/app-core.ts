/**
 * The core: everything the app does that is not a window. It runs in plain Node
 * (Electron main and the node host both start it), owns the gateway engine, the
 * gateway client and, in later work, auth, the offline queue and the devices.
 */
import { join } from 'node:path';
import type { CoreStatus, HandlerMap } from '../../shared/ipc/contract';
import { ok } from '../../shared/result';
import { DEFAULT_STORE_SETTINGS, type StoreSettings } from '../../shared/ipc/settings';
import { createAuthHandlers } from './auth-handlers';
import { openPosDatabase } from './pos-database';
import { createSalesHandlers } from './sales';
import { UserDirectory } from './users';
import { GatewayClient, type GatewayAuth } from '../client/gateway-client';
import { startEngine, type RunningEngine } from '../gateway/engine';
import { APP_NAME, APP_VERSION } from './app-info';
import { CoreEvents } from './events';
import { FileSecretStore } from '../secrets/file-secret-store';
import { getOrCreateKey, type SecretStore } from '../secrets/secret-store';

/** Name of the embedded engine's account-vault key in the secret store. */
export const VAULT_KEY_SECRET = 'vault-key';

/** Health probe period: with the client's 2 s probe timeout, a gateway going away shows within 5 s, and its return clears it as fast. */
export const DEFAULT_HEALTH_INTERVAL_MS = 2_000;

export interface RemoteGateway {
  baseUrl: string;
  auth: GatewayAuth;
  /** Location and merchant account sales run against (RINGUP_LOCATION_ID / RINGUP_PRODUCT_TRANSACTION_ID); the gateway's defaults apply when absent. */
  locationId?: string;
  productTransactionId?: string;
}

export interface CoreOptions {
  dataDir: string;
  shell: CoreStatus['shell'];
  /** Use this gateway instead of starting the embedded engine. */
  remote?: RemoteGateway;
  /** Port for the embedded engine; 0 or absent picks a free one. */
  enginePort?: number;
  /** The desktop shell's receipt printer (see SalesDeps.printReceipt); absent in the node host. */
  printReceipt?: (transactionId: string) => Promise<string | null>;
  /** How often to re-check the gateway, ms (0 disables the timer). Default 2 s: with the 2 s probe timeout, trouble shows within 5 s. */
  healthIntervalMs?: number;
  /** Per-request timeout of the gateway client, ms (default 10 s; RINGUP_GATEWAY_TIMEOUT_MS in the node host). */
  gatewayTimeoutMs?: number;
  /** The store settings (tests pass their own; default: DEFAULT_STORE_SETTINGS). */
  settings?: () => StoreSettings;
  /** Where keys live: safeStorage in the desktop app; a 0600 key file in `<dataDir>/secrets` when absent (node host). */
  secrets?: SecretStore;
}

export interface Core {
  readonly dataDir: string;
  readonly handlers: HandlerMap;
  readonly events: CoreEvents;
  status(): CoreStatus;
  close(): Promise<void>;
}

/** Reads a remote gateway from RINGUP_GATEWAY_URL + RINGUP_DEVELOPER_ID / RINGUP_USER_ID / RINGUP_USER_API_KEY. */
export function remoteGatewayFromEnv(env: NodeJS.ProcessEnv = process.env): RemoteGateway | undefined {
  const baseUrl = env.RINGUP_GATEWAY_URL;
  if (!baseUrl) return undefined;
  const { RINGUP_DEVELOPER_ID: developerId, RINGUP_USER_ID: userId, RINGUP_USER_API_KEY: userApiKey } = env;
  if (!developerId || !userId || !userApiKey) {
    throw new Error('RINGUP_GATEWAY_URL is set, so RINGUP_DEVELOPER_ID, RINGUP_USER_ID and RINGUP_USER_API_KEY must be set too.');
  }
  return {
    baseUrl,
    auth: { developerId, userId, userApiKey },
    ...(env.RINGUP_LOCATION_ID ? { locationId: env.RINGUP_LOCATION_ID } : {}),
    ...(env.RINGUP_PRODUCT_TRANSACTION_ID ? { productTransactionId: env.RINGUP_PRODUCT_TRANSACTION_ID } : {}),
  };
}

export async function startCore(opts: CoreOptions): Promise<Core> {
  const events = new CoreEvents();
  let engine: RunningEngine | undefined;
  let client: GatewayClient;
  let locationId: string | undefined = opts.remote?.locationId;
  let productTransactionId: string | undefined = opts.remote?.productTransactionId;
  const timeout = opts.gatewayTimeoutMs ? { timeoutMs: opts.gatewayTimeoutMs } : {};

  if (opts.remote) {
    client = new GatewayClient({ baseUrl: opts.remote.baseUrl, auth: opts.remote.auth, ...timeout });
  } else {
    const secrets = opts.secrets ?? new FileSecretStore(opts.dataDir);
    engine = await startEngine({
      dataDir: join(opts.dataDir, 'gateway'),
      port: opts.enginePort ?? 0,
      vaultKey: await getOrCreateKey(secrets, VAULT_KEY_SECRET),
    });
    const c = engine.credentials;
    client = new GatewayClient({
      baseUrl: engine.baseUrl,
      auth: { developerId: c.developer_id, userId: c.user_id, userApiKey: c.user_api_key },
      ...timeout,
    });
    locationId = c.location_id;
    productTransactionId = c.cc_product_transaction_id;
  }
  const db = openPosDatabase(opts.dataDir);
  const users = new UserDirectory(db, Date.now, (session) => events.emit('auth:session', session));

  let gateway: CoreStatus['gateway'] = {
    mode: opts.remote ? 'remote' : 'embedded',
    baseUrl: client.baseUrl,
    health: 'starting',
    latencyMs: null,
    checkedAt: Date.now(),
  };

  const status = (): CoreStatus => ({
    appName: APP_NAME,
    version: APP_VERSION,
    dataDir: opts.dataDir,
    shell: opts.shell,
    gateway,
  });

  async function checkGateway(): Promise<CoreStatus['gateway']> {
    const report = await client.health();
    const changed = report.health !== gateway.health;
    gateway = { ...gateway, health: report.health, latencyMs: report.latencyMs, checkedAt: report.checkedAt };
    if (changed) events.emit('core:status', status());
    return gateway;
  }

  await checkGateway();
  const interval = opts.healthIntervalMs ?? DEFAULT_HEALTH_INTERVAL_MS;
  // One probe at a time: the next starts `interval` after the last one ended (a hung gateway makes a probe last its 2 s timeout).
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const schedule = () => {
    if (closed || interval <= 0) return;
    timer = setTimeout(() => void checkGateway().finally(schedule), interval);
    timer.unref();
  };
  schedule();

  const handlers: HandlerMap = {
    'core:status': async () => ok(status()),
    'gateway:check': async () => ok(await checkGateway()),
    ...createAuthHandlers(users),
    ...createSalesHandlers({
      client,
      users,
      db,
      locationId,
      productTransactionId,
      shell: opts.shell,
      // The lead connects the real settings store at merge; until then the defaults.
      settings: opts.settings ?? (() => DEFAULT_STORE_SETTINGS),
      ...(opts.printReceipt ? { printReceipt: opts.printReceipt } : {}),
    }),
  };

  return {
    dataDir: opts.dataDir,
    handlers,
    events,
    status,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await engine?.close();
      db.close();
    },
  };
}
