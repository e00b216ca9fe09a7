/**
 * What `npm run bench:store` (store-bench.mjs) runs, bundled by it with esbuild: the store rig
 * (real PostgreSQL, store server process, registers as node hosts) and a wire client that speaks
 * the store's protocol as a register's sync does — joined with a one-time code a real register
 * made, pinned to the server's certificate, pushing batches of SYNC_BATCH_MAX events shaped as a
 * register's sales are (a cart snapshot with its lines and tenders, its cash movement, its audit
 * row and its stock movement: the fact bodies of shared/store/store-fact-bodies.ts).
 */
import { Agent, request } from 'node:https';
import { codeProof } from '../../electron/common/store-code';
import { joinCodeSchema, STORE_ROUTES, SYNC_BATCH_MAX, type JoinAnswer, type PushAnswer, type PushedEvent } from '../../shared/store/store-wire';

export { startStoreRig, waitUntil } from '../helpers/store-rig';
export { seededRandom } from '../helpers/seeded-random';
export { stockedItems } from '../helpers/store-trade';
export { SYNC_BATCH_MAX } from '../../shared/store/store-wire';

interface Answer<T> {
  status: number;
  body: T;
}

/** An HTTPS exchange with the store server: pinned to `pem` when given (as a joined register is), else unchecked (hello). */
function exchange<T>(agent: Agent, address: string, method: string, path: string, body: unknown, token: string | null, pem: string | null): Promise<Answer<T>> {
  const url = new URL(path, address);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: { ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(pem ? { ca: pem, checkServerIdentity: () => undefined } : { rejectUnauthorized: false }),
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : null) as T });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

export interface WireRegister {
  registerId: string;
  /** Pushes one batch; answers what the server said and how long it took (ms). */
  push(events: PushedEvent[]): Promise<{ answer: PushAnswer; ms: number }>;
  close(): void;
}

/** A register that speaks only the wire: joins with `code` (made by a real register's store:invite) at `address`. */
export async function joinOverWire(address: string, code: string, name: string): Promise<WireRegister> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const hello = await exchange<{ certificate?: string; certificatePem?: string }>(agent, address, 'GET', STORE_ROUTES.hello, undefined, null, null);
  const pem = hello.body.certificatePem ?? hello.body.certificate;
  if (hello.status !== 200 || !pem) throw new Error(`hello answered ${hello.status}: ${JSON.stringify(hello.body)}`);
  const joined = await exchange<JoinAnswer>(agent, address, 'POST', STORE_ROUTES.join, { codeProof: codeProof(joinCodeSchema.parse(code)), registerName: name }, null, pem);
  if (joined.status < 200 || joined.status > 299) throw new Error(`join answered ${joined.status}: ${JSON.stringify(joined.body)}`);
  const { token, registerId } = joined.body;
  return {
    registerId,
    async push(events) {
      const t0 = performance.now();
      const r = await exchange<PushAnswer>(agent, address, 'POST', STORE_ROUTES.events, { events }, token, pem);
      if (r.status < 200 || r.status > 299) throw new Error(`push answered ${r.status}: ${JSON.stringify(r.body)}`);
      return { answer: r.body, ms: performance.now() - t0 };
    },
    close: () => agent.destroy(),
  };
}

/**
 * The events of `sales` cash sales of one register, as its outbox holds them (ids `<register>:<n>`
 * from `firstSeq`), in batches of SYNC_BATCH_MAX: four events a sale (cart, cash, audit, stock).
 */
export function saleEventBatches(registerId: string, sales: number, itemId: string, firstSeq = 1): PushedEvent[][] {
  const events: PushedEvent[] = [];
  const at = Date.now();
  let seq = firstSeq;
  for (let i = 1; i <= sales; i++) {
    const cartId = `bench-${registerId}-${i}`;
    const cents = 100 + (i % 900);
    const id = () => `${registerId}:${seq++}`;
    events.push({
      type: 'fact',
      id: id(),
      kind: 'cart',
      key: cartId,
      at,
      body: {
        id: cartId,
        user_id: 'bench',
        status: 'paid',
        total_cents: cents,
        created_ts: at,
        closed_ts: at,
        lines: [{ id: `${cartId}-l1`, cart_id: cartId, seq: 1, item_id: itemId, name: 'Water', unit_cents: cents, quantity: 1, tax_category: 'standard', refunded: 0 }],
        tenders: [{ id: `${cartId}-t1`, cart_id: cartId, seq: 1, kind: 'cash', status: 'approved', requested_cents: cents, approved_cents: cents, tendered_cents: cents, change_cents: 0, refunded_cents: 0, tax_cents: 0, tip_cents: 0, created_ts: at }],
      },
    });
    events.push({ type: 'fact', id: id(), kind: 'cash_movements', key: String(i), at, body: { seq: i, cart_id: cartId, kind: 'sale', cents, ts: at } });
    events.push({ type: 'fact', id: id(), kind: 'audit_log', key: String(i), at, body: { seq: i, ts: at, kind: 'cash-sale', user_id: 'bench', user_name: 'Bench', amount_cents: cents, transaction_id: null, detail: `Cart ${cartId}` } });
    events.push({ type: 'fact', id: id(), kind: 'stock_movements', key: `${cartId}-m1`, at, body: { id: `${cartId}-m1`, item_id: itemId, variant_id: null, delta: -1, reason: 'sale', note: '', cart_id: cartId, user_id: 'bench', user_name: 'Bench', ts: at } });
  }
  const batches: PushedEvent[][] = [];
  for (let i = 0; i < events.length; i += SYNC_BATCH_MAX) batches.push(events.slice(i, i + SYNC_BATCH_MAX));
  return batches;
}
