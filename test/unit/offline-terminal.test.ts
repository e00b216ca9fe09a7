/**
 * Card-present sales through a gateway outage (issue 13), under the store's default
 * settings: the counter's core against a real engine behind a real TCP gate (refused while
 * down), and the terminal simulator on a real TCP port. While the gateway is away the core
 * reads the card on the terminal itself, asking for a store-and-forward read; the terminal
 * answers the card encrypted for the gateway, which goes into the offline queue (sealed at
 * rest). The terminal is known across a restart during the outage. When the gateway answers
 * again the queue forwards the encrypted reads; the gateway decrypts them and keeps each
 * sale's entry mode (chip, contactless, swiped) — exactly once per sale.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_ERRORS } from '../../electron/core/queue/offline-queue';
import { OFFLINE_APPROVED } from '../../electron/core/queue/offline-sales';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';
import { formatMoney } from '../../shared/payments/money';
import { useGatedEngine } from '../helpers/core-harness';
import { standaloneHeaders } from '../helpers/standalone-engine';

const PAN = '4111111111111111';
const keyedCard = { number: PAN, expiry: '1230', cvv: '999', zip: '32606' };

const g = useGatedEngine('ringup-offline-term-engine-');
let sim: TerminalSimulator;
let n = 0;
const ref = () => `offline-term-${process.pid}-${n++}`;

/** A counter on `dir` with the store's defaults (card-present sales go offline, keyed cards do not), Casey signed in. */
async function counter(dir: string) {
  const c = await g.openCounter(dir, { deviceStatusIntervalMs: 0, settings: () => DEFAULT_STORE_SETTINGS });
  await c.signInAs('Casey', '0000');
  return c;
}

beforeAll(async () => {
  sim = new TerminalSimulator();
  const simPort = await sim.listenTcp(0);
  // The installer pointed the demo terminal at the counter's terminal.
  const list = (await (await fetch(`${g.creds.base_url}/terminals`, { headers: standaloneHeaders(g.creds) })).json()) as { terminals: Array<{ id: string }> };
  const put = await fetch(`${g.creds.base_url}/terminals/${list.terminals[0]!.id}`, {
    method: 'PUT',
    headers: standaloneHeaders(g.creds),
    body: JSON.stringify({ terminal: { local_ip_address: '127.0.0.1', port: simPort } }),
  });
  expect(put.status).toBe(200);
}, 30_000);

afterAll(async () => {
  await sim?.close();
});

interface EngineRow {
  transaction_api_id: string;
  status_id: number;
  entry_mode_id: string;
  last_four: string;
  transaction_amount: string;
  emv_receipt_data: Record<string, string> | null;
}

async function atEngine(apiId: string): Promise<EngineRow[]> {
  return (await g.transactions<EngineRow>(`transaction_api_id=${apiId}`)).filter((t) => t.transaction_api_id === apiId);
}

/** Every byte of the counter database's files (main file and WAL). */
const rawFiles = (dir: string) => Buffer.concat(readdirSync(dir).filter((f) => f.startsWith('ringup.db')).map((f) => readFileSync(join(dir, f))));

describe('a terminal sale while the gateway cannot be reached (default settings)', () => {
  it('is read on the terminal, approved offline with its entry mode, kept across a restart, and forwarded once with the terminal’s encrypted read', async () => {
    const dir = g.tempDir('ringup-offline-term-counter-');
    let c = await counter(dir);
    // Online: the counter learns its terminal from the gateway.
    expect(await c.call('devices:terminal-status')).toMatchObject({ ok: true, value: { connection: 'connected', title: 'Demo Terminal' } });

    await g.outage(c);
    // The terminal itself still answers: the counter shows it ready, not offline.
    expect(await c.call('devices:terminal-status')).toMatchObject({ ok: true, value: { connection: 'connected' } });

    const sold = await c.call('devices:terminal-sale', { subtotalCents: 1_234, taxCents: 102, tipCents: 0, clientRef: ref() });
    if (!sold.ok) throw new Error(sold.error.message);
    // Queued under the core's own reference (its transaction_api_id once forwarded), not the screen's attempt id.
    const chip = sold.value.transaction.apiId!;
    expect(sold.value).toMatchObject({ approved: true, message: OFFLINE_APPROVED, transaction: { offline: true, entryMode: 'chip', lastFour: '1111', cardBrand: 'Visa', amountCents: 1_336, taxCents: 102 } });
    // The terminal was asked for a store-and-forward read.
    expect(sim.received.at(-1)!.fields[4]).toContain('saf=1');
    // The sale screen showed "Approved offline" (issue 20, point 3): it acknowledges the sale, so it may be sent.
    expect(await c.call('queue:acknowledge', { id: sold.value.transaction.id })).toMatchObject({ ok: true, value: { acknowledged: true } });

    const tapped = await c.call('devices:terminal-sale', { subtotalCents: 718, taxCents: 0, tipCents: 0, clientRef: ref() });
    expect(tapped).toMatchObject({ ok: true, value: { transaction: { entryMode: 'contactless' } } });
    const tap = tapped.ok ? tapped.value.transaction.apiId! : '';
    expect(await c.call('queue:acknowledge', { id: tapped.ok ? tapped.value.transaction.id : '' })).toMatchObject({ ok: true });
    // A debit card with PIN needs the bank; a number keyed on the terminal's pad is keyed: both refused with a sentence, nothing queued.
    expect(await c.call('devices:terminal-sale', { subtotalCents: 711, taxCents: 0, tipCents: 0, clientRef: ref() })).toEqual({ ok: false, error: { code: 'offline_refused', message: OFFLINE_ERRORS.debit } });
    expect(await c.call('devices:terminal-sale', { subtotalCents: 710, taxCents: 0, tipCents: 0, clientRef: ref() })).toEqual({ ok: false, error: { code: 'offline_refused', message: OFFLINE_ERRORS.keyed } });
    // Over the cap: refused before the customer is asked for a card.
    const asked = sim.received.length;
    expect(await c.call('devices:terminal-sale', { subtotalCents: 10_001, taxCents: 0, tipCents: 0, clientRef: ref() })).toEqual({ ok: false, error: { code: 'offline_refused', message: OFFLINE_ERRORS.overPayment(10_000) } });
    expect(sim.received.length).toBe(asked);
    // A keyed card at the counter: the store takes none offline, and the cashier is told so.
    expect(await c.call('sale:charge', { subtotalCents: 1_000, taxCents: 0, tipCents: 0, card: keyedCard, clientRef: ref() })).toEqual({ ok: false, error: { code: 'offline_refused', message: OFFLINE_ERRORS.keyed } });

    // The card data waits sealed: neither the number nor the terminal's encrypted read is readable in the files.
    expect(rawFiles(dir).includes(Buffer.from(PAN))).toBe(false);
    expect(rawFiles(dir).includes(Buffer.from('e_track_data'))).toBe(false);
    expect(rawFiles(dir).includes(Buffer.from('eTrackData'))).toBe(false);

    // Restarted during the outage: the terminal is still known, and sells.
    await c.core.close();
    c = await counter(dir);
    const swiped = await c.call('devices:terminal-sale', { subtotalCents: 713, taxCents: 0, tipCents: 0, clientRef: ref() });
    expect(swiped).toMatchObject({ ok: true, value: { transaction: { entryMode: 'swiped', offline: true } } });
    const swipe = swiped.ok ? swiped.value.transaction.apiId! : '';
    expect(await c.call('queue:acknowledge', { id: swiped.ok ? swiped.value.transaction.id : '' })).toMatchObject({ ok: true });
    expect(await c.call('queue:status')).toMatchObject({ ok: true, value: { pendingCount: 3, pendingCents: 1_336 + 718 + 713 } });
    for (const r of [chip, tap, swipe]) expect(await atEngine(r)).toEqual([]);

    await g.recovery(c);
    const rows = await Promise.all([chip, tap, swipe].map(atEngine));
    expect(rows.map((r) => r.map((t) => [Number(t.status_id), t.entry_mode_id, t.last_four, t.transaction_amount]))).toEqual([
      [[101, 'C', '1111', '13.36']],
      [[101, 'P', '1111', '7.18']],
      [[101, 'S', '1111', '7.13']],
    ]);
    expect(rows[0]![0]!.emv_receipt_data).toMatchObject({ AID: 'A0000000031010', APPLAB: 'VISA CREDIT' });
    await c.core.close();
  }, 60_000);

  it('a cart paid on the terminal offline: the tender waits in the queue, and Cancel sale withdraws it — nothing charged', async () => {
    const dir = g.tempDir('ringup-offline-term-cart-');
    const c = await counter(dir);
    await c.call('auth:sign-out');
    await c.signInAs('Morgan', '1234');
    expect(await c.call('devices:terminal-status')).toMatchObject({ ok: true, value: { connection: 'connected' } });

    await g.outage(c);
    expect((await c.call('cart:add-open', { name: 'Lamp', amountCents: 1_500, taxCategory: 'exempt' })).ok).toBe(true);
    // Part of the balance on the terminal (a paid cart is not cancelled; its lines are returned instead).
    const paid = await c.call('cart:pay-terminal', { clientRef: ref(), amountCents: 1_000 });
    if (!paid.ok) throw new Error(paid.error.message);
    const clientRef = paid.value.tenders[0]!.id; // the core's reference: the queue's key and the transaction_api_id
    expect(paid.value).toMatchObject({ status: 'open', message: OFFLINE_APPROVED, balanceCents: 500, tenders: [{ kind: 'terminal', status: 'approved', approvedCents: 1_000 }] });
    expect(await c.call('queue:status')).toMatchObject({ ok: true, value: { pendingCount: 1, pendingCents: 1_000 } });

    const cancelled = await c.call('cart:cancel', { confirmed: true });
    expect(cancelled.ok && cancelled.value.status).toBe('cancelled');
    const listed = await c.call('queue:list');
    expect(listed.ok && listed.value.items.find((i) => i.clientRef === clientRef)).toMatchObject({ state: 'withdrawn', entryMode: 'C' });

    await g.recovery(c);
    expect(await atEngine(clientRef)).toEqual([]);
    await c.core.close();
  }, 60_000);
});

describe('a tip the customer picks on the terminal while the gateway is away (issue 21)', () => {
  it("is taken of the store's tip base, as on line: 15 % of a $10.00 sale with $0.75 tax is $1.50 before tax, $1.61 after; forwarded as such", async () => {
    // The terminal asks for tips (15/18/20 %); the counter learns it on line.
    const list = (await (await fetch(`${g.creds.base_url}/terminals`, { headers: standaloneHeaders(g.creds) })).json()) as { terminals: Array<{ id: string }> };
    const put = await fetch(`${g.creds.base_url}/terminals/${list.terminals[0]!.id}`, {
      method: 'PUT',
      headers: standaloneHeaders(g.creds),
      body: JSON.stringify({ terminal: { tip_percents: { percent_1: 15, percent_2: 18, percent_3: 20 } } }),
    });
    expect(put.status).toBe(200);
    for (const [tipBase, baseCents, tipCents] of [['before-tax', 1_000, 150], ['after-tax', 1_075, 161]] as const) {
      const c = await g.openCounter(g.tempDir('ringup-offline-tip-'), { deviceStatusIntervalMs: 0, settings: () => ({ ...DEFAULT_STORE_SETTINGS, tipBase }) });
      await c.signInAs('Casey', '0000');
      expect(await c.call('devices:terminal-status')).toMatchObject({ ok: true, value: { tipPercents: [15, 18, 20] } });
      await g.outage(c);
      sim.script = { ...sim.script, tip: 1 };
      const sold = await c.call('devices:terminal-sale', { subtotalCents: 1_000, taxCents: 75, tipCents: null, clientRef: ref() });
      if (!sold.ok) throw new Error(sold.error.message);
      expect(sold.value.transaction).toMatchObject({ offline: true, tipCents, amountCents: 1_075 + tipCents });
      expect(sim.received.at(-1)!.fields[4]).toContain(`tip_base=${baseCents}`);
      expect(await c.call('queue:acknowledge', { id: sold.value.transaction.id })).toMatchObject({ ok: true });
      await g.recovery(c);
      const [row] = await atEngine(sold.value.transaction.apiId!);
      expect(row).toMatchObject({ status_id: 101, transaction_amount: formatMoney(1_075 + tipCents) });
      await c.core.close();
    }
  }, 60_000);
});
