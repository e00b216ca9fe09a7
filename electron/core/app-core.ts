/**
 * The core: everything the app does that is not a window. It runs in plain Node, in a
 * process of its own (core-process/core-child.ts: Electron's utilityProcess, the node
 * host's child; unit tests start it in theirs), owns the gateway engine, the
 * gateway client and, in later work, auth, the offline queue and the devices.
 */
import { join } from 'node:path';
import type { CoreStatus, HandlerMap, PaperSize, StoreSettings } from '../../shared/ipc/contract';
import { ok } from '../../shared/result';
import { createAuditHandlers } from './audit/audit-handlers';
import { createOutboxHandlers } from './outbox/outbox-handlers';
import { createPayPagesHandlers, syncStoreName } from './pay-pages/pay-pages';
import { createCounterUsersHandlers } from './users/counter-users';
import { AuditLog } from './audit/audit-log';
import { createRecorders } from './audit/recorders';
import { enforceChannelRules, noteMoney } from '../ipc/channel-rules';
import { createAuthHandlers } from './auth/auth-handlers';
import { createBatchHandlers } from './batches/batch-handlers';
import { createReports } from './reports/reports';
import { inThreadFigures, workerFigures } from './reports/report-reader';
import { createVaultHandlers } from './vault/vault-handlers';
import { createRecurringHandlers } from './recurring/recurring-handlers';
import { createBillingLinksHandlers } from './billing-links/billing-links-handlers';
import { createLevel3Handlers } from './level3/level3-handlers';
import { createLinksHandlers } from './links/links-handlers';
import { createSettingsHandlers } from './settings/settings-handlers';
import { StoreSettingsStore } from './settings/store-settings';
import { openPosDatabase, startPosCheckpointer } from './platform/pos-database';
import { createDevicesHandlers } from './devices/devices';
import { devicePlacesFromEnv, type DevicePlaces } from '../devices/device-places';
import { createBarcodeHandlers } from './barcode/barcode-handlers';
import { startPrinting } from './printers/printing';
import { receiptPrintPrinterFirst, reportPrintPrinterFirst } from './printers/printer-first';
import { payLinkFacts } from './printers/pay-link-facts';
import { createSalesHandlers } from './sales/sales';
import { Catalogue } from './catalogue/catalogue';
import { createCatalogueHandlers } from './catalogue/catalogue-handlers';
import { cartRulesOf, createTenderHandlers } from './cart/tenders';
import { CartStore } from './cart/cart-store';
import { UserDirectory } from './auth/users';
import { loadPinPepper, mergePepperRings, PIN_PEPPER_SECRET, PinHasher } from './auth/pin-hash';
import type { GatewayAuth } from '../client/gateway-client';
import { gatewayClient } from './gateway/gateway-clients';
import type { SpawnEngine } from './gateway/engine-supervisor';
import { APP_NAME, APP_VERSION } from './platform/app-info';
import { CoreEvents } from './platform/events';
import { getOrCreateKey, type SecretStore } from '../secrets/secret-store';
import { CASHIER_CREDENTIALS_SECRET, INSTALLER_CREDENTIALS_SECRET } from './gateway/role-credentials';
import { openNodeHostSecretStore } from './keys/node-host-keys';
import { accountChangeRefusal, type AccountTarget } from './gateway/account-change-guard';
import { createKeysHandlers } from './keys/keys-handlers';
import { authMethodOf, connectionView, createGatewayConnectionHandlers } from './gateway/gateway-connection-handlers';
import { REMOTE_KEY_SECRET, savedRemote } from './gateway/gateway-connection';
import { createGatewayOAuthHandlers, skipFirstRun } from './gateway/gateway-oauth';
import { OAUTH_SESSION_SECRET } from './gateway/oauth-session';
import { accountKey, enterAccount } from './gateway/account-records';
import { OfflineQueue, OFFLINE_QUEUE_KEY_SECRET } from './queue/offline-queue';
import { queuedReadRefusal } from './devices/terminal-faults';
import { OfflineForwarder } from './queue/offline-forwarder';
import { ClerkRecords } from './sales/clerk-records';
import { createOfflineSales, offlineForwardedRecorder } from './queue/offline-sales';
import { TenderRefs } from './cart/tender-refs';
import { createOfflineTerminal } from './queue/offline-terminal-sale';
import { REGISTER_COPY_MESSAGE, registerStanding } from './queue/register-binding';
import { LOST_SWEEP_MS, LostPayments } from './sales/lost-payments';

export { VAULT_KEY_SECRET, type RemoteGateway } from './gateway/gateway-start';
import { startGateway, VAULT_KEY_SECRET, type RemoteGateway } from './gateway/gateway-start';
import { GatewayHealth } from './gateway/gateway-health';
import { LostSweeper } from './sales/lost-sweeper';
import { CustomerDisplay } from './display/customer-display';
import { createDisplayHandlers } from './display/display-handlers';
import { followForDisplay } from './display/display-follow';
import { createStoreHandlers } from './store/store-handlers';
import { StoreRegister } from './store/store-register';
import { gatewayCardCheck, storeRemoteGateway } from './store/store-gateway';

/** Health probe period: with the client's 2 s probe timeout, a gateway going away shows within 5 s, and its return clears it as fast. */
export const DEFAULT_HEALTH_INTERVAL_MS = 2_000;

export interface CoreOptions {
  dataDir: string;
  shell: CoreStatus['shell'];
  /** Use this gateway instead of starting the embedded engine. */
  remote?: RemoteGateway;
  /** Port for the embedded engine; 0 or absent picks a free one. */
  enginePort?: number;
  /** The desktop shell's receipt printer (see SalesDeps.printReceipt); absent in the node host. */
  printReceipt?: (transactionId: string) => Promise<string | null>;
  /** The desktop shell's report printer (print or save as PDF the report on screen); absent in the node host. */
  printReport?: (name: string, paper: PaperSize) => Promise<string | null>;
  /** How often to re-check the gateway, ms (0 disables the timer). Default 2 s: with the 2 s probe timeout, trouble shows within 5 s. */
  healthIntervalMs?: number;
  /** How often to ask about payments whose answer was lost while one is unknown, ms (default LOST_SWEEP_MS). */
  lostSweepMs?: number;
  /** How often to re-check the counter's terminal, ms (0 disables the timer; default 10 s). */
  deviceStatusIntervalMs?: number;
  /** How often to ask the receipt printer its status, ms (0 disables the timer; default 3 s; RINGUP_PRINTER_STATUS_MS in the node host). */
  printerStatusIntervalMs?: number;
  /** Per-request timeout of the gateway client, ms (default 10 s; RINGUP_GATEWAY_TIMEOUT_MS in the node host). */
  gatewayTimeoutMs?: number;
  /** The store settings (tests pass their own; default: the store settings saved in the app database). */
  settings?: () => StoreSettings;
  /** Where keys live: safeStorage in the desktop app; when absent (node host), 0600 key files outside the data folder (node-host-keys.ts). */
  secrets?: SecretStore;
  /**
   * How the embedded engine runs: in its own supervised process made by `spawn` (the core
   * process forks it with child_process: engine-supervisor.ts forkEngine), or — when absent —
   * inside this process (unit tests and tools, where there is no built engine entry to fork).
   */
  engineProcess?: SpawnEngine;
  /** Idle lock in ms, overriding the store setting (host `--idle-lock-seconds`, for kiosks and tests). */
  idleLockMs?: number;
  /** Opens the gateway's OAuth login page in the system browser (Electron's shell.openExternal); absent in the node host, where the renderer opens it. */
  openExternal?: (url: string) => Promise<void>;
  /** Take the first-run default (the embedded engine) without asking (host `--skip-first-run`: scripted installs and tests). */
  skipFirstRun?: boolean;
  /** How long an OAuth sign-in waits for the browser, ms (default 5 min). */
  oauthTimeoutMs?: number;
  /** Which terminal ports and serial paths devices may use (default: RINGUP_TERMINAL_PORTS and RINGUP_SERIAL_PTYS; devices/device-places.ts). */
  devicePlaces?: DevicePlaces;
  /** How long a sale queued offline waits for its screen's acknowledgement before it is shown at sign-in, seconds (default 30; tests). */
  offlineAckGraceSeconds?: number;
  /** The store sync's look at its outbox and its longest wait while the store server is away, ms (RINGUP_STORE_TICK_MS, RINGUP_STORE_BACKOFF_MS; store-sync.ts). */
  storeTickMs?: number;
  storeBackoffMaxMs?: number;
  /** Per-request timeout to the store server, ms (RINGUP_STORE_TIMEOUT_MS; default 10 s). */
  storeTimeoutMs?: number;
  /** How long a pull waits at the store server, ms (default PULL_WAIT_MAX_MS). */
  storePullWaitMs?: number;
  /** Keep to the store address typed at the join, not the others the store lists (RINGUP_STORE_TYPED_ADDRESS_ONLY=1: tests that cut one register's link at a proxy). */
  storeTypedAddressOnly?: boolean;
  /**
   * The built report reader (build/core/report-reader.mjs): reports read their ringup.db figures on
   * a worker thread with it (reports/report-reader.ts). Absent (unit tests, tools): on this thread.
   */
  reportReaderEntry?: string;
}

export interface Core {
  readonly dataDir: string;
  /** Every channel behind its declared access and audit (electron/ipc/channel-rules.ts), for every transport. */
  readonly handlers: HandlerMap;
  readonly events: CoreEvents;
  status(): CoreStatus;
  /** The store settings as saved now (the sales code reads tax, tips and thresholds here). */
  settings(): StoreSettings;
  /** A window or connection went away: its session ends. */
  disconnect(callerId: string): void;
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

/** The store sync's options from RINGUP_STORE_TICK_MS, RINGUP_STORE_BACKOFF_MS, RINGUP_STORE_TIMEOUT_MS (tests that must not wait seconds) and RINGUP_STORE_TYPED_ADDRESS_ONLY. */
export function storeTimingFromEnv(env: NodeJS.ProcessEnv = process.env): Pick<CoreOptions, 'storeTickMs' | 'storeBackoffMaxMs' | 'storeTimeoutMs' | 'storeTypedAddressOnly'> {
  const ms = (v: string | undefined) => {
    const n = Number(v ?? '');
    return Number.isInteger(n) && n > 0 ? n : undefined;
  };
  const tick = ms(env.RINGUP_STORE_TICK_MS);
  const backoff = ms(env.RINGUP_STORE_BACKOFF_MS);
  const timeout = ms(env.RINGUP_STORE_TIMEOUT_MS);
  return {
    ...(tick ? { storeTickMs: tick } : {}),
    ...(backoff ? { storeBackoffMaxMs: backoff } : {}),
    ...(timeout ? { storeTimeoutMs: timeout } : {}),
    ...(env.RINGUP_STORE_TYPED_ADDRESS_ONLY === '1' ? { storeTypedAddressOnly: true } : {}),
  };
}

export async function startCore(opts: CoreOptions): Promise<Core> {
  const events = new CoreEvents();
  // Made once the offline forwarder exists (it kicks the queue); the engine's supervisor and the forwarder reach it through here.
  let health: GatewayHealth | undefined = undefined;
  // The app database and the key store first: the gateway a manager saved is read from them.
  const db = openPosDatabase(opts.dataDir);
  const stopPosCheckpointer = await startPosCheckpointer(db, opts.dataDir);
  const reportFigures = opts.reportReaderEntry ? workerFigures(opts.reportReaderEntry, join(opts.dataDir, 'ringup.db')) : inThreadFigures(db);
  const secretStore = opts.secrets ?? openNodeHostSecretStore(opts.dataDir);
  // A copy of another register's data folder opens its keys but is not it: it reaches no gateway at all (register-binding.ts).
  const copy = (await registerStanding(opts.dataDir, secretStore)).copy;
  if (opts.skipFirstRun) skipFirstRun(db);
  // Environment variables win; else the store's shared gateway (issue 24, store-gateway.ts); else the remote gateway a manager saved; else the embedded engine.
  const fromStore = opts.remote || copy ? undefined : await storeRemoteGateway(db, secretStore);
  const saved = opts.remote || copy || fromStore ? undefined : await savedRemote(db, secretStore);
  const remote: RemoteGateway | undefined = copy ? undefined : (opts.remote ?? fromStore ?? saved);
  const timeout = opts.gatewayTimeoutMs ? { timeoutMs: opts.gatewayTimeoutMs } : {};
  let onSignedIn: () => void = () => {};
  // Set once the user directory exists: a signed-in cashier's or installer's requests go with that role's engine user.
  let roleAuth: () => GatewayAuth | undefined = () => undefined;
  const authFor = () => roleAuth();
  const started = await startGateway({
    dataDir: opts.dataDir,
    db,
    secrets: secretStore,
    copy,
    remote,
    savedOAuth: saved?.oauth,
    fromEnvironment: opts.remote !== undefined,
    ...(opts.enginePort !== undefined ? { enginePort: opts.enginePort } : {}),
    ...(opts.engineProcess ? { engineProcess: opts.engineProcess } : {}),
    timeout,
    authFor,
    onEngineState: (s) => health?.engineState(s),
  });
  const { client, auth: gatewayAuth, roleUsers, engine, supervisor, embeddedOAuth, oauth, locationId, productTransactionId, awaitingKeys } = started;
  // Another account than the last run's: the previous account's records go (a copy has no account: it keeps them).
  if (!copy) enterAccount(db, accountKey({ mode: remote ? 'remote' : 'embedded', baseUrl: client.baseUrl, developerId: gatewayAuth.developerId, userId: gatewayAuth.userId }));
  const audit = new AuditLog(db);
  // The core's own client: always the gateway's admin user, never a window's role user (no
  // authFor). What the register does on its own behalf goes through it: voiding a charge it did
  // not agree to, voiding a partial approval, sending a cart's Level 3 (a cashier's engine user
  // may only sell).
  // The gateway the run's other clients talk to; each one's credentials, timeout and transport are chosen by its use (gateway-clients.ts).
  const gatewayHere = { baseUrl: client.baseUrl, auth: gatewayAuth, authFor, ...timeout, ...(remote?.pinnedCertPem ? { pinnedCertPem: remote.pinnedCertPem } : {}) };
  const coreClient = gatewayClient('core', gatewayHere);
  // Every transaction_api_id for new money is made and bound here (issue 20, point 2); a charge
  // whose answer does not match its tender is voided by the core.
  const refs = new TenderRefs({ db, audit, voidCharge: (id) => coreClient.voidTransaction(id) });
  const storeSettings = new StoreSettingsStore(db);
  // The embedded engine's pay pages and messages carry the store's name from Store settings: given at start and on each change.
  if (!remote && locationId) {
    const at = locationId;
    const giveName = (name: string) => void syncStoreName(coreClient, at, name).catch((err: unknown) => console.error(`[core] store name to the gateway: ${err instanceof Error ? err.message : String(err)}`));
    giveName(storeSettings.get().storeName);
    events.subscribe((event, payload) => {
      if (event === 'settings:changed') giveName((payload as StoreSettings).storeName);
    });
  }
  const settings = opts.settings ?? (() => storeSettings.get());
  // PIN hashes are keyed with the PIN pepper from the secret store: a copied ringup.db alone gives up no PIN (pin-hash.ts).
  // Kept: a register joining a store puts the store's pepper first in its ring (store-join.ts).
  const pins = new PinHasher(await loadPinPepper(secretStore));
  const users = new UserDirectory(db, {
    pins,
    audit,
    timers: true,
    idleLockMs: () => opts.idleLockMs ?? settings().idleLockMinutes * 60_000,
    // Sessions are per window: only the window whose session changed hears about it.
    onSessionChange: (callerId, session) => {
      events.emitTo(callerId, 'auth:session', session);
      // A sign-in or an unlock asks about payments whose answer was lost (issue 20, point 3).
      if (session) onSignedIn();
    },
    onLocked: (callerId, lock) => events.emitTo(callerId, 'auth:locked', lock),
  });
  roleAuth = () => {
    const role = users.current()?.user.role;
    return role === 'cashier' || role === 'installer' ? roleUsers[role] : undefined;
  };

  // Offline store-and-forward (issue 13). Forwarding goes as the gateway's admin user whoever is signed in
  // (or nobody): signing out or switching user never holds a queued sale back.
  const offlineQueue = new OfflineQueue(db, await getOrCreateKey(secretStore, OFFLINE_QUEUE_KEY_SECRET));
  // Who rang up which transaction (sales.ts keeps its own view of the same table).
  const clerks = new ClerkRecords(db);
  // Payments whose answer was lost (issue 20, point 3): on disk with their cashier before they leave, resolved after a restart too.
  const lost = new LostPayments({ db, client, locationId, refs, clerks, audit, onChange: () => events.emit('sale:lost', lost.list()) });
  const forwarder = new OfflineForwarder({
    queue: offlineQueue,
    // node:http: a drain of thousands of sales is paced by the client's cost per request (bench:queue).
    client: gatewayClient('forwarder', gatewayHere),
    settings,
    onStatus: (q) => {
      events.emit('queue:status', q);
      // Sales are getting through ("Send now" may beat the health probe): the probe looks again, so the banner goes with it.
      if (q.forwarding && (q.progress?.done ?? 0) > 0 && health?.status.health !== 'ok') void health?.check();
    },
    onForwarded: offlineForwardedRecorder(db, clerks),
    // A terminal's read is checked again before it leaves (terminal-faults.ts): amounts that do not add up stay here.
    refuse: queuedReadRefusal(audit, settings),
    // An answer that is not the tender its reference was made for is not counted (issue 20, point 2).
    checkAnswer: (sale, t) => refs.problemWith(sale.clientRef, t),
  });
  // Which cart a card transaction is a tender of, and that cart following a void of it (issue 20); no figure needs the tax rate here.
  const carts = new CartStore(db, () => 0);
  const offline = createOfflineSales({
    queue: offlineQueue,
    forwarder,
    settings,
    locationId,
    productTransactionId,
    // A cart tender whose offline sale is cancelled at sign-in (its screen never said approved): the cart follows.
    onUnconfirmedCancelled: (ref) => carts.offlineTenderCancelled(ref),
    ...(opts.offlineAckGraceSeconds !== undefined ? { ackGraceSeconds: opts.offlineAckGraceSeconds } : {}),
  });

  health = new GatewayHealth({
    client,
    initial: { mode: remote ? 'remote' : 'embedded', baseUrl: client.baseUrl, auth: authMethodOf(remote ? 'remote' : 'embedded', gatewayAuth) },
    copy,
    intervalMs: opts.healthIntervalMs ?? DEFAULT_HEALTH_INTERVAL_MS,
    restarting: () => supervisor?.state === 'restarting',
    onChange: () => events.emit('core:status', status()),
    // The gateway answers (again): whatever waits in the offline queue goes now.
    onAnswering: () => {
      if (forwarder.status().pendingCount > 0) void forwarder.kick();
    },
  });
  const gatewayHealth = health;
  const status = (): CoreStatus => ({
    appName: APP_NAME,
    version: APP_VERSION,
    dataDir: opts.dataDir,
    shell: opts.shell,
    gateway: gatewayHealth.status,
    ...(copy ? { registerCopy: REGISTER_COPY_MESSAGE } : {}),
  });
  await gatewayHealth.start();

  const lostSweeper = new LostSweeper(lost, copy);
  onSignedIn = () => lostSweeper.sweep();
  lostSweeper.start(opts.lostSweepMs ?? LOST_SWEEP_MS);

  // Router requests stay open while the customer uses the terminal (overall_timeout ≤ 300 s).
  const devices = createDevicesHandlers({
    client,
    routerClient: gatewayClient('router', gatewayHere),
    users,
    events,
    locationId,
    guards: settings,
    tipRules: settings,
    clerks,
    refs,
    lost,
    ...(opts.deviceStatusIntervalMs !== undefined ? { statusIntervalMs: opts.deviceStatusIntervalMs } : {}),
    offline: createOfflineTerminal({ db, queue: offlineQueue, forwarder, events, settings, locationId, productTransactionId, audit }),
    audit,
    // Voiding a charge the register did not agree to is the register's act, not the cashier's.
    reverseClient: coreClient,
    ...(opts.devicePlaces ? { places: opts.devicePlaces } : {}),
  });
  const { close: closeDevices, refreshStatus: _refreshDevices, storeCardOnTerminal, ...deviceHandlers } = devices;
  // Serial barcode scanners (issue 23, point 5): their ports kept open, each code pushed as barcode:scanned.
  const barcode = createBarcodeHandlers({ db, events, places: opts.devicePlaces ?? devicePlacesFromEnv(process.env) });

  const running = () => ({ mode: gatewayHealth.status.mode, baseUrl: client.baseUrl, fromEnvironment: opts.remote !== undefined, auth: gatewayAuth, signedOut: gatewayHealth.status.signedOut });
  /**
   * A manager signed the counter out of the gateway: this run's sign-in ends now, not at the
   * next start. Every client of this run reads the one credentials object per request, so an
   * emptied API key (OAuth tokens are revoked and dropped by their session) and the role
   * users' keys dropped mean nothing more is sent with them; the probe then sees the refusal
   * and the status says why. The gateway a manager chose applies at the next start. A run
   * from environment variables, or on the engine's own keys, has nothing to sign out of.
   */
  const endRunSignIn = () => {
    if (opts.remote || gatewayHealth.status.auth === 'engine-keys') return;
    if (!gatewayAuth.tokens) gatewayAuth.userApiKey = '';
    delete roleUsers.cashier;
    delete roleUsers.installer;
    gatewayHealth.signedOut();
  };
  // Offline sales not yet sent and open sales' card payments hold a change of account back (account-change-guard.ts).
  const refuseAccountChange = (target: AccountTarget) =>
    accountChangeRefusal({ db, running: { mode: gatewayHealth.status.mode, baseUrl: client.baseUrl, userId: gatewayAuth.userId }, target, pendingOffline: forwarder.status().pendingCount });
  const { close: closeOAuth, revokeAll, ...oauthHandlers } = createGatewayOAuthHandlers({
    db,
    secrets: secretStore,
    view: () => connectionView(db, running()),
    embedded: () => embeddedOAuth,
    runningSession: () => oauth,
    refuseAccountChange,
    onSignedOut: endRunSignIn,
    ...(opts.openExternal ? { openExternal: opts.openExternal } : {}),
    ...(opts.oauthTimeoutMs ? { loopbackTimeoutMs: opts.oauthTimeoutMs } : {}),
  });

  // The receipt printer and cash drawer (issue 23): its channels, status watcher and print queue (printers/printing.ts).
  const printing = startPrinting({
    db,
    events,
    audit,
    users,
    places: opts.devicePlaces ?? devicePlacesFromEnv(process.env),
    settings,
    // A paid cart's receipt, read as its channel reads it (inner, below; called only once the core runs).
    cartReceipt: (cartId) => inner['cart:receipt']({ cartId }),
    ...(opts.printerStatusIntervalMs !== undefined ? { intervalMs: opts.printerStatusIntervalMs } : {}),
  });
  const catalogue = new Catalogue(db);
  const cartLinks = { statusOfTransaction: (id: string) => carts.statusOfTransaction(id), tenderVoided: (id: string) => carts.tenderVoided(id) };
  const sales = createSalesHandlers({
    client,
    partialVoidClient: coreClient,
    outboxClient: coreClient,
    users,
    db,
    locationId,
    productTransactionId,
    shell: opts.shell,
    settings,
    offline,
    carts: cartLinks,
    refs,
    lost,
    ...(opts.printReceipt ? { printReceipt: opts.printReceipt } : {}),
  });
  const { handlers: reports, closeZ } = createReports({
    client,
    users,
    db,
    locationId,
    store: () => {
      const st = settings();
      return { name: st.storeName, address: st.storeAddress, phone: st.storePhone };
    },
    ...(opts.printReport ? { printReport: opts.printReport } : {}),
    figures: reportFigures,
    // On the store's shared gateway (this run's gateway when fromStore is set) its records are every register's: count this register's own.
    sharedGateway: fromStore !== undefined,
  });
  const vault = createVaultHandlers({ client, locationId, productTransactionId, guards: settings, clerks, refs, lost, storeCardOnTerminal });
  // This register as one of a store's registers (issue 24): its status, and the sync while it is in a store.
  const store = new StoreRegister({
    db,
    secrets: secretStore,
    events,
    audit,
    pins,
    users,
    settings: storeSettings,
    closeZ,
    copy,
    // The store's card check: this run's gateway against the store's tenders, when it is the store's shared one.
    gatewayCardCents: gatewayCardCheck(coreClient, locationId, fromStore?.baseUrl ?? null),
    ...(opts.storeTypedAddressOnly ? { typedAddressOnly: true } : {}),
    ...(opts.storeTickMs !== undefined ? { tickMs: opts.storeTickMs } : {}),
    ...(opts.storeBackoffMaxMs !== undefined ? { backoffMaxMs: opts.storeBackoffMaxMs } : {}),
    ...(opts.storeTimeoutMs !== undefined ? { timeoutMs: opts.storeTimeoutMs } : {}),
    ...(opts.storePullWaitMs !== undefined ? { pullWaitMs: opts.storePullWaitMs } : {}),
  });
  // The customer display (issue 23, point 4): fed by the counter's answers and the core's own events, never polled.
  const display = new CustomerDisplay({ events, settings });
  const inner: HandlerMap = {
    ...createDisplayHandlers(display),
    'core:status': async () => ok(status()),
    'gateway:check': async () => ok(await gatewayHealth.check()),
    ...createAuthHandlers(users),
    ...sales,
    ...offline.handlers,
    ...deviceHandlers,
    ...barcode.handlers,
    ...createBatchHandlers({ client, users, locationId, productTransactionId }),
    ...createLevel3Handlers({ client }),
    ...createLinksHandlers({ client }),
    ...vault,
    ...createRecurringHandlers({ client, locationId }),
    ...createBillingLinksHandlers({ client, locationId }),
    ...reports,
    // Issue 23: on the receipt printer when one is registered, else as the shell or the browser prints.
    'receipt:print': receiptPrintPrinterFirst(printing, { view: (id) => sales['transactions:view']({ id }), payLink: (id) => payLinkFacts(coreClient, id) }, sales['receipt:print']),
    'reports:print': reportPrintPrinterFirst(printing, reports, reports['reports:print']),
    ...createSettingsHandlers({ users, settings: storeSettings, events }),
    ...createAuditHandlers(audit),
    ...createOutboxHandlers({ client, locationId }),
    ...createPayPagesHandlers({ client, locationId }),
    ...createGatewayConnectionHandlers({
      db,
      secrets: secretStore,
      running,
      leaveOAuth: async () => void (await revokeAll()),
      refuseAccountChange,
    }),
    ...oauthHandlers,
    ...createKeysHandlers({
      dataDir: opts.dataDir,
      secrets: secretStore,
      names: [VAULT_KEY_SECRET, CASHIER_CREDENTIALS_SECRET, INSTALLER_CREDENTIALS_SECRET, REMOTE_KEY_SECRET, OAUTH_SESSION_SECRET, OFFLINE_QUEUE_KEY_SECRET, PIN_PEPPER_SECRET],
      // A restored PIN pepper joins this register's instead of replacing it: both registers' PINs check.
      merge: { [PIN_PEPPER_SECRET]: mergePepperRings },
      audit,
      awaitingKeys,
    }),
    ...createCounterUsersHandlers({ db, users, onChanged: () => events.emit('auth:users-changed', users.list()) }),
    ...createCatalogueHandlers({ db, catalogue }),
    ...printing.handlers,
    ...createStoreHandlers(store),
    ...createTenderHandlers({
      db,
      users,
      catalogue,
      offline,
      // Level 3 from the cart is sent by the core on the sale's behalf (a cashier's engine user may only sell).
      client: coreClient,
      events,
      taxRateBasisPoints: () => settings().taxRateBasisPoints,
      guards: settings,
      refs,
      // The cart's money steps call the sales, vault and devices services themselves, not the channel map: the
      // cart's own channels are what the cashier asked for, and their recorders write each money move noted here.
      money: {
        'sale:charge': (a) => noteMoney('sale:charge', a, () => sales['sale:charge'](a)),
        'sale:outcome': (a) => sales['sale:outcome'](a),
        'sale:void-partial': (a) => noteMoney('sale:void-partial', a, () => sales['sale:void-partial'](a)),
        'transactions:refund': (a) => noteMoney('transactions:refund', a, () => sales['transactions:refund'](a)),
        'transactions:void': (a) => noteMoney('transactions:void', a, () => sales['transactions:void'](a)),
        'transactions:view': (a) => sales['transactions:view'](a),
        'vault:charge': (a) => noteMoney('vault:charge', a, () => vault['vault:charge'](a)),
        'devices:terminal-sale': (a) => noteMoney('devices:terminal-sale', a, () => deviceHandlers['devices:terminal-sale'](a)),
      },
    }),
  };
  // Who may call each channel and what it audits, as declared in shared/ipc (channel-rules.ts): one wrapper for
  // every transport. A copied data folder answers only the channels declared to (register-binding.ts).
  const handlers = enforceChannelRules(followForDisplay(inner, display), {
    users,
    audit,
    recorders: createRecorders({ users, settings: () => storeSettings.get(), cartRules: () => cartRulesOf(db), queueItem: (ref) => offline.item(ref) }),
    copiedFolder: copy,
  });
  await store.start();

  return {
    dataDir: opts.dataDir,
    handlers,
    events,
    status,
    settings,
    disconnect: (callerId) => users.disconnect(callerId),
    async close() {
      await store.close();
      display.close();
      gatewayHealth.stop();
      await lostSweeper.stop();
      forwarder.stop();
      await forwarder.idle();
      closeDevices();
      await barcode.close();
      await printing.close();
      closeOAuth();
      users.close();
      await engine?.close();
      await supervisor?.stop();
      await reportFigures.close();
      await stopPosCheckpointer();
      db.close();
    },
  };
}
