/**
 * The process the offline-queue kill test (test/unit/offline-queue-kill.test.ts) kills
 * with SIGKILL at random moments. It runs the core's real queue and forwarder on a data
 * folder against a real standalone engine: it keeps taking sales offline (printing
 * `Q <clientRef>` only after each enqueue returned, i.e. after the fsynced commit, the
 * moment a cashier would see "approved offline") while forwarding runs beside it.
 *
 * Usage (bundled by the test with esbuild): node child.mjs <dataDir> <baseUrl> <developerId> <userId> <userApiKey> <locationId> <prefix>
 * The queue key comes in RINGUP_QUEUE_KEY (hex). With prefix "-" it only drains the queue and exits.
 */
import { GatewayClient } from '../../electron/client/gateway-client';
import { OfflineForwarder } from '../../electron/core/offline-forwarder';
import { OfflineQueue, type OfflineRules } from '../../electron/core/offline-queue';
import { openPosDatabase } from '../../electron/core/pos-database';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';

const [dataDir, baseUrl, developerId, userId, userApiKey, locationId, prefix] = process.argv.slice(2) as [string, string, string, string, string, string, string];
const rules: OfflineRules = { ...DEFAULT_STORE_SETTINGS, offlineAllowKeyed: true, offlinePaymentCapCents: 10_000, offlineTotalCapCents: 99_999_999 };
const queue = new OfflineQueue(openPosDatabase(dataDir), Buffer.from(process.env.RINGUP_QUEUE_KEY ?? '', 'hex'));
const client = new GatewayClient({ baseUrl, auth: { developerId, userId, userApiKey }, timeoutMs: 5_000 });
// Small groups, so kills also land between a gateway's answer and its recorded result.
const forwarder = new OfflineForwarder({ queue, client, settings: () => rules, parallelism: 4, baseBackoffMs: 50, commitEvery: 3 });

async function main(): Promise<void> {
  if (prefix === '-') {
    await forwarder.kick();
    await forwarder.idle();
    const st = forwarder.status();
    process.stdout.write(`DRAINED ${st.pendingCount}\n`);
    process.exit(st.pendingCount === 0 ? 0 : 2);
  }
  // Forwarding starts with what an earlier (killed) run left behind.
  void forwarder.kick();
  for (let i = 0; ; i++) {
    const clientRef = `${prefix}-${i}`;
    const r = queue.enqueue(
      {
        clientRef,
        amountCents: 100 + (i % 50),
        taxCents: 0,
        tipCents: 0,
        card: { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' },
        clerk: { id: 'kill', name: 'Kill Test', number: 'kill', role: 'cashier' },
        locationId,
        productTransactionId: null,
        collectsRestOf: null,
        keyed: true,
      },
      rules,
    );
    if (!r.ok) throw new Error(r.message);
    process.stdout.write(`Q ${clientRef}\n`);
    if (i % 3 === 0) void forwarder.kick();
    await new Promise((res) => setImmediate(res));
  }
}

void main();
