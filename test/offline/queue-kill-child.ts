/**
 * The process the offline-queue kill tests (test/unit/offline-queue-kill.test.ts,
 * test/unit/offline-ack-kill.test.ts) kill with SIGKILL at random moments. It runs the core's
 * real queue and forwarder on a data folder against a real standalone engine: it keeps taking
 * sales offline while forwarding runs beside it. For each sale it prints `Q <clientRef>` only
 * after enqueue returned (the fsynced commit), then — as the sale screen does once it has shown
 * "Approved offline" (issue 20, point 3) — acknowledges it and prints `A <clientRef>` after that
 * commit returned. With RINGUP_KILL_SKIP_ACK=N every Nth sale is never acknowledged (its window
 * went away before it showed the sale).
 *
 * Usage (bundled by the tests with esbuild): node child.mjs <dataDir> <baseUrl> <developerId> <userId> <userApiKey> <locationId> <prefix>
 * The queue key comes in RINGUP_QUEUE_KEY (hex). With prefix "-" it only drains the queue and
 * exits, after keeping every sale left unacknowledged (what the next person to sign in does
 * when they choose "Keep it"); with prefix "=" it prints `U <clientRef>` for each sale the next
 * sign-in would be shown, keeps none, and drains the rest.
 */
import { GatewayClient } from '../../electron/client/gateway-client';
import { OfflineForwarder } from '../../electron/core/queue/offline-forwarder';
import { OfflineQueue, type OfflineRules } from '../../electron/core/queue/offline-queue';
import { openPosDatabase } from '../../electron/core/platform/pos-database';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';

const [dataDir, baseUrl, developerId, userId, userApiKey, locationId, prefix] = process.argv.slice(2) as [string, string, string, string, string, string, string];
const rules: OfflineRules = { ...DEFAULT_STORE_SETTINGS, offlineAllowKeyed: true, offlinePaymentCapCents: 10_000, offlineTotalCapCents: 99_999_999 };
const skipAck = Number(process.env.RINGUP_KILL_SKIP_ACK ?? '0');
const queue = new OfflineQueue(openPosDatabase(dataDir), Buffer.from(process.env.RINGUP_QUEUE_KEY ?? '', 'hex'));
const client = new GatewayClient({ baseUrl, auth: { developerId, userId, userApiKey }, timeoutMs: 5_000 });
// Small groups, so kills also land between a gateway's answer and its recorded result.
const forwarder = new OfflineForwarder({ queue, client, settings: () => rules, parallelism: 4, baseBackoffMs: 50, commitEvery: 3 });

async function main(): Promise<void> {
  if (prefix === '-' || prefix === '=') {
    // This is a new run of the app: what an earlier run left unacknowledged is what the next sign-in is shown.
    for (const it of queue.unconfirmed()) {
      if (prefix === '-') queue.acknowledge(it.clientRef);
      else process.stdout.write(`U ${it.clientRef}\n`);
    }
    await forwarder.kick();
    await forwarder.idle();
    const st = forwarder.status();
    const left = prefix === '=' ? queue.unconfirmed().length : 0;
    process.stdout.write(`DRAINED ${st.pendingCount - left}\n`);
    process.exit(st.pendingCount - left === 0 ? 0 : 2);
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
    // The screen shows "Approved offline", then acknowledges it (a skipped one: the window went away first).
    if (!(skipAck > 0 && i % skipAck === skipAck - 1)) {
      await new Promise((res) => setImmediate(res));
      queue.acknowledge(clientRef);
      process.stdout.write(`A ${clientRef}\n`);
    }
    if (i % 3 === 0) void forwarder.kick();
    await new Promise((res) => setImmediate(res));
  }
}

void main();
