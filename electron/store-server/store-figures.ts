/**
 * The store's report (`/v1/figures`) and the store's day (`/v1/store-days`), from the projections
 * (store-projections.ts), in integer cents.
 *
 * Per register: the paid (or due) carts closed in the period, their approved card tenders as the
 * gateway took them (the cart's share and the tip), less the card refunds THAT register made in the
 * period (`refunds`, by when each was made); tax, tips, and the cash from the drawer's ledger (in
 * less given back). So a sale taken on R1 and partly refunded from R2 (the store's shared gateway)
 * stays whole on R1 and the refund is R2's, as the gateway's records have it, and the store's card
 * total is the gateway's. Read in one REPEATABLE READ snapshot, so the figures and `throughSeq`
 * agree. The period defaults to "since the store's last day closed".
 *
 * Which refunds count: those giving back an approved card tender of a paid or due cart the store
 * holds (from any register), because those carts are all the card money the figures count. A
 * cancelled cart's settled card refunded on cancel counts neither its sale nor that refund, as the
 * gateway nets them; a refund of a sale made outside a cart (the Sale screen) is left out as its
 * sale is. A refund of a cart whose snapshot has not reached the store yet counts once it has.
 *
 * Simplifications: the figures hold the money rung up through carts (a card sale keyed on the Sale
 * screen, or a void made from the Transactions screen, is in the gateway's records and not here);
 * the tax is that of the approved tenders, refunds do not take tax back; a refund's time is the
 * register's, in whole seconds (one made in the very second the store's day closed counts in the
 * day after).
 */
import type { StoreDayView } from '../../shared/ipc/store';
import type { RegisterFigures, StoreCloseRequest, StoreDay, StoreFigures } from '../../shared/store/store-wire';
import { appendAudit } from './store-audit';
import { inTransaction, lockEvents, type StoreClient, type StorePool } from './store-database';
import { STORE_ERR, StoreError } from './store-errors';
import { appendServerEvent, lastSeq } from './store-events';
import type { AuthenticatedRegister } from './store-registers';

type Totals = StoreFigures['totals'];
const zero = (): Totals => ({ sales: 0, cardCents: 0, cashCents: 0, taxCents: 0, tipCents: 0, netCents: 0 });

async function readOnly<T>(pool: StorePool, work: (client: StoreClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const out = await work(client);
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** `from`/`to`: unix seconds, inclusive. */
export async function storeFigures(pool: StorePool, from?: number, to?: number, now = Date.now()): Promise<StoreFigures> {
  return readOnly(pool, async (client) => {
    const throughSeq = await lastSeq(client);
    const lastDay = (await client.query<{ number: number; closed_ts: number }>('SELECT number, closed_ts FROM store_days ORDER BY number DESC LIMIT 1')).rows[0];
    const lo = from !== undefined ? from * 1000 : lastDay ? lastDay.closed_ts + 1 : 0;
    const hi = to !== undefined ? to * 1000 + 999 : now;
    // Since the store's last day (no `from`): each register from the end of its own Z for that day,
    // when it has made it. It closes its day when it applies the store's Z — a moment later, or hours
    // later when it was away — and what it sold meanwhile is in that Z, not in the new day. Before
    // its Z (or with an explicit `from`), from `lo`.
    const dayOfZ = from === undefined && lastDay ? lastDay.number : null;
    const bounds = `WITH bounds AS (
        SELECT r.id AS register_id, COALESCE((SELECT (z.to_ts + 1) * 1000 FROM z_reports z WHERE z.register_id = r.id AND z.store_day = $3::integer ORDER BY z.number DESC LIMIT 1), $1::bigint) AS lo
        FROM registers r)`;
    const regs = (await client.query<{ id: string; name: string; removed_ts: number | null }>('SELECT id, name, removed_ts FROM registers ORDER BY joined_ts, id')).rows;
    const sales = new Map(
      (
        await client.query<{ register_id: string; n: number; card: number; tax: number; tip: number }>(
          `${bounds}
           SELECT s.register_id, COUNT(*)::bigint AS n, SUM(card_cents)::bigint AS card, SUM(tax_cents)::bigint AS tax, SUM(tip_cents)::bigint AS tip
             FROM sales s JOIN bounds b ON b.register_id = s.register_id
            WHERE status IN ('paid', 'due') AND closed_ts BETWEEN b.lo AND $2 GROUP BY s.register_id`,
          [lo, hi, dayOfZ],
        )
      ).rows.map((r) => [r.register_id, r]),
    );
    // Each refund once, on the register that made it, when it gives back a card tender of a paid or due cart (the file comment says why).
    const refunds = new Map(
      (
        await client.query<{ register_id: string; cents: number }>(
          `${bounds}
           SELECT r.register_id, SUM(r.cents)::bigint AS cents FROM refunds r JOIN bounds b ON b.register_id = r.register_id
            WHERE r.ts BETWEEN b.lo AND $2
              AND EXISTS (SELECT 1 FROM sales s WHERE s.status IN ('paid', 'due')
                            AND s.body -> 'tenders' @> jsonb_build_array(jsonb_build_object('transaction_id', r.original_id, 'status', 'approved')))
            GROUP BY r.register_id`,
          [lo, hi, dayOfZ],
        )
      ).rows.map((r) => [r.register_id, r.cents]),
    );
    const cash = new Map(
      (
        await client.query<{ register_id: string; cents: number }>(
          `${bounds}
           SELECT c.register_id, SUM(cents)::bigint AS cents FROM cash_movements c JOIN bounds b ON b.register_id = c.register_id WHERE ts BETWEEN b.lo AND $2 GROUP BY c.register_id`,
          [lo, hi, dayOfZ],
        )
      ).rows.map((r) => [r.register_id, r.cents]),
    );
    const lastZ = new Map(
      (
        await client.query<{ register_id: string; number: number; counted_cents: number | null; expected_cents: number | null; to_ts: number }>(
          'SELECT DISTINCT ON (register_id) register_id, number, counted_cents, expected_cents, to_ts FROM z_reports WHERE to_ts <= $1 ORDER BY register_id, number DESC',
          [Math.floor(hi / 1000)],
        )
      ).rows.map((r) => [r.register_id, r]),
    );
    const registers: RegisterFigures[] = [];
    const totals = zero();
    for (const r of regs) {
      const s = sales.get(r.id);
      const c = cash.get(r.id) ?? 0;
      const refunded = refunds.get(r.id) ?? 0;
      const card = (s?.card ?? 0) - refunded;
      const z = lastZ.get(r.id);
      // A removed register stays listed while it has money in the period.
      if (r.removed_ts !== null && !s && c === 0 && refunded === 0) continue;
      const f: RegisterFigures = {
        registerId: r.id,
        name: r.name,
        sales: s?.n ?? 0,
        cardCents: card,
        cashCents: c,
        taxCents: s?.tax ?? 0,
        tipCents: s?.tip ?? 0,
        netCents: card + c,
        lastZ: z ? { number: z.number, countedCents: z.counted_cents, expectedCents: z.expected_cents, toTs: z.to_ts } : null,
      };
      registers.push(f);
      for (const k of Object.keys(totals) as Array<keyof Totals>) totals[k] += f[k];
    }
    return { from: Math.floor(lo / 1000), to: Math.floor(hi / 1000), registers, totals, throughSeq };
  });
}

const dollars = (cents: number) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/** The store's Z: a `store_day` event every register closes its own day by (with its drawer's count), and a row of the store's days. */
export async function closeStoreDay(pool: StorePool, by: AuthenticatedRegister, req: StoreCloseRequest, now = Date.now()): Promise<StoreDayView> {
  return inTransaction(pool, async (client) => {
    await lockEvents(client);
    const active = (await client.query<{ id: string; name: string }>('SELECT id, name FROM registers WHERE removed_ts IS NULL ORDER BY joined_ts, id')).rows;
    const names = new Map(active.map((r) => [r.id, r.name]));
    const errors: Record<string, string[]> = {};
    const seen = new Set<string>();
    req.counts.forEach((c, i) => {
      if (!names.has(c.registerId)) errors[`counts.${i}.registerId`] = [STORE_ERR.countUnknownRegister];
      else if (seen.has(c.registerId)) errors[`counts.${i}.registerId`] = [STORE_ERR.countTwice];
      seen.add(c.registerId);
    });
    if (Object.keys(errors).length > 0) throw new StoreError(400, errors);
    const number = (await client.query<{ n: number }>('SELECT COALESCE(MAX(number), 0)::bigint + 1 AS n FROM store_days')).rows[0]!.n;
    const day: StoreDay = { number, closedTs: now, closedBy: req.closedBy, counts: req.counts };
    const seq = await appendServerEvent(client, 'store_day', String(number), { ...day }, now);
    await client.query('INSERT INTO store_days (number, closed_ts, closed_by, counts, seq) VALUES ($1, $2, $3, $4, $5)', [number, now, req.closedBy, JSON.stringify(req.counts), seq]);
    const counted = req.counts.map((c) => `“${names.get(c.registerId)}” ${dollars(c.countedCents)}`).join(', ');
    const total = req.counts.reduce((s, c) => s + c.countedCents, 0);
    await appendAudit(
      client,
      [
        {
          ts: now,
          register_id: null,
          register_seq: null,
          kind: 'store-z',
          user_id: null,
          user_name: req.closedBy,
          amount_cents: total,
          transaction_id: null,
          detail: `The store's day ${number} was closed by ${req.closedBy} on “${by.name}”; drawers counted: ${counted || 'none'}.`,
          event_seq: seq,
        },
      ],
      now,
    );
    return { ...day, closed: [], waitingFor: active.map((r) => r.id) };
  });
}

/** The store's days, newest first, each with the registers that have pushed their Z for it and those still to. */
export async function listStoreDays(pool: StorePool, limit = 100): Promise<StoreDayView[]> {
  return readOnly(pool, async (client) => {
    const days = (await client.query<{ number: number; closed_ts: number; closed_by: string; counts: StoreDay['counts'] }>('SELECT number, closed_ts, closed_by, counts FROM store_days ORDER BY number DESC LIMIT $1', [limit]))
      .rows;
    if (days.length === 0) return [];
    const closed = new Map(
      (await client.query<{ store_day: number; ids: string[] }>('SELECT store_day, array_agg(DISTINCT register_id ORDER BY register_id) AS ids FROM z_reports WHERE store_day = ANY($1::integer[]) GROUP BY store_day', [
        days.map((d) => d.number),
      ])).rows.map((r) => [r.store_day, r.ids]),
    );
    const regs = (await client.query<{ id: string; joined_ts: number; removed_ts: number | null }>('SELECT id, joined_ts, removed_ts FROM registers ORDER BY joined_ts, id')).rows;
    return days.map((d) => {
      const done = closed.get(d.number) ?? [];
      // Who owes a Z for this day: the registers in the store when it closed and still in it.
      const waitingFor = regs.filter((r) => r.joined_ts <= d.closed_ts && r.removed_ts === null && !done.includes(r.id)).map((r) => r.id);
      return { number: d.number, closedTs: d.closed_ts, closedBy: d.closed_by, counts: d.counts, closed: done, waitingFor };
    });
  });
}
