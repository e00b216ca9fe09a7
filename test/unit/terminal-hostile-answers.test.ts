/**
 * The register decides the amount; the terminal only approves it (issue 20, point 1). A table
 * of hostile terminal answers × every way a terminal pays at the counter: the direct sale
 * (devices:terminal-sale), the cart's terminal tender (cart:pay-terminal) and the offline sale
 * (the core drives the terminal itself while the gateway is away), then the forward.
 *
 * Real pieces throughout: a counter core against a real engine behind a real TCP gate, the
 * terminal simulator on a real TCP port rewriting its answer on the wire, real SQLite files.
 * For every answer: nothing is counted as paid, the engine keeps no net charge (a charge that
 * happened is voided), the audit log has a device-fault row with no card number in it, the
 * cashier gets the sentence, and the card number is nowhere in ringup.db or the engine's files.
 */
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_MSG } from '../../electron/devices/device-messages';
import { DATABASE_FILE } from '../../electron/gateway/engine';
import { SIM_CARDS } from '../../electron/devices/sim/mock-amounts';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { DEFAULT_STORE_SETTINGS, type StoreSettings } from '../../shared/ipc/settings';
import { maskCardNumbersInText } from '../../shared/payments/masking';
import type { Result } from '../../shared/result';
import { clearCart, useGatedEngine, value, type OpenCore } from '../helpers/core-harness';
import { standaloneHeaders } from '../helpers/standalone-engine';

const PAN = SIM_CARDS.visa.pan;
const US = '\x1f';
const g = useGatedEngine('ringup-hostile-engine-');
let sim: TerminalSimulator;
let c: OpenCore;
let dir: string;
let n = 0;
const ref = (path: string) => `hostile-${path}-${process.pid}-${n++}`;
/** The store's settings, per case: a $50 hard cap (so a terminal tip can pass it) and the tip share. */
const BASE: StoreSettings = { ...DEFAULT_STORE_SETTINGS, hardCapCents: 5_000, confirmAboveCents: 5_000, tipConfirmPercent: 50 };
let store: StoreSettings = BASE;

const setSub = (field: string, i: number, v: string) => field.split(US).map((x, j) => (j === i ? v : x)).join(US);
const at = (i: number, fn: (x: string) => string) => (f: string[]) => f.map((x, j) => (j === i ? fn(x) : x));

interface Case {
  name: string;
  /** The sale before any tip (cents). */
  amount: number;
  /** 'terminal': the terminal may ask for a tip (direct and offline sales only; the cart fixes 0). */
  tip: 'counter' | 'terminal';
  /** The customer's tip choice on the terminal (percent 1..3 of 10/15/20). */
  choice?: 1 | 2 | 3;
  settings?: Partial<StoreSettings>;
  /** The answer rewritten on the wire; none: an honest answer the store's limits refuse. */
  rewrite?: (f: string[], asked: number) => string[];
}

const CASES: Case[] = [
  { name: 'amount ×10', amount: 1_234, tip: 'counter', rewrite: (f, a) => at(3, (x) => setSub(x, 0, String(a * 10)))(f) },
  { name: '"1e9"', amount: 1_234, tip: 'counter', rewrite: at(3, (x) => setSub(x, 0, '1e9')) },
  { name: 'one cent', amount: 1_234, tip: 'counter', rewrite: at(3, (x) => setSub(x, 0, '1')) },
  // The terminal's top percent (20 %) passes the engine's check; the store allows 15 %.
  { name: 'tip past the store limit', amount: 2_000, tip: 'terminal', choice: 3, settings: { tipConfirmPercent: 15 } },
  { name: 'tip when prompting was off', amount: 1_234, tip: 'counter', rewrite: (f, a) => at(3, () => `${a + 100}${US}100`)(f) },
  // 45.00 with the terminal's 20 % tip is 54.00, past the $50 cap.
  { name: 'total past the hard cap', amount: 4_500, tip: 'terminal', choice: 3 },
  { name: 'declined status with approved text', amount: 1_234, tip: 'counter', rewrite: (f) => ['100010', 'APPROVED', ...f.slice(2)] },
  { name: 'a card number in an EMV tag value', amount: 714, tip: 'counter', rewrite: at(6, () => `AID=A0000000031010${US}APPLAB=VISA ${PAN}`) },
  { name: 'a card number in the expiry', amount: 1_234, tip: 'counter', rewrite: at(4, (x) => setSub(x, 5, PAN)) },
  { name: 'markup and control characters in the result text', amount: 1_234, tip: 'counter', rewrite: at(1, () => '<img src=x onerror=alert(1)>\x9b2J') },
  { name: 'oversize fields', amount: 1_234, tip: 'counter', rewrite: (f) => at(2, (x) => setSub(x, 0, 'A'.repeat(3_000)))(at(1, () => 'B'.repeat(3_000))(f)) },
];

type Path = 'direct' | 'cart' | 'offline';

/** Runs one case on one path; answers the result shown to the cashier and the reference used. */
async function pay(path: Path, k: Case): Promise<{ r: Result<unknown>; clientRef: string }> {
  store = { ...BASE, ...k.settings };
  sim.script.tip = k.choice ?? 0;
  const clientRef = ref(path);
  const asked = k.amount;
  sim.faults.rewriteAnswer = k.rewrite ? (f) => k.rewrite!(f, asked) : undefined;
  if (path === 'cart') {
    await clearCart(c);
    value(await c.call('cart:add-open', { name: 'Lamp', amountCents: k.amount, taxCategory: 'exempt' }));
    return { r: await c.call('cart:pay-terminal', { clientRef }), clientRef };
  }
  const tipCents = path !== 'direct' && path !== 'offline' ? 0 : k.tip === 'counter' ? 0 : null;
  return { r: await c.call('devices:terminal-sale', { subtotalCents: k.amount, taxCents: 0, tipCents, clientRef }), clientRef };
}

const auditRows = () => {
  const db = new Database(join(dir, 'ringup.db'), { readonly: true });
  try {
    return db.prepare("SELECT kind, detail, amount_cents FROM audit_log WHERE kind = 'device-fault' ORDER BY seq").all() as Array<{ kind: string; detail: string }>;
  } finally {
    db.close();
  }
};

/** Every byte of the files in `folder` (recursively) whose names start with one of `prefixes`. */
const filesOf = (folder: string) =>
  readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => ({ name: f.name, bytes: readFileSync(join(f.parentPath, f.name)) }));

/**
 * The approved (status 101) transactions at the engine, read from its SQLite file. The gateway's
 * transaction_api_id is the core's own reference, never the screen's clientRef (issue 20, point
 * 2), so "no net charge" is: no approved transaction that was not there before the case.
 */
const approvedAtEngine = (): string[] => {
  const db = new Database(join(g.engineDir, 'gateway', DATABASE_FILE), { readonly: true });
  try {
    return (db.prepare('SELECT id FROM transactions WHERE status_id = 101 ORDER BY id').all() as Array<{ id: string }>).map((t) => t.id);
  } finally {
    db.close();
  }
};

/** What a case is judged against: taken before it runs. */
interface Before {
  faults: number;
  approved: string[];
  queued: number;
}

async function snapshot(): Promise<Before> {
  return { faults: auditRows().length, approved: approvedAtEngine(), queued: value(await c.call('queue:list')).items.length };
}

async function expectRefused(path: Path, k: Case, r: Result<unknown>, before: Before) {
  // The sentence shown.
  expect(r.ok, `${path} / ${k.name}: ${JSON.stringify(r)}`).toBe(false);
  if (r.ok) return;
  expect(r.error.code).toBe('device_fault');
  expect(r.error.message.startsWith(DEVICE_MSG.FAULT)).toBe(true);
  expect(r.error.message).not.toMatch(/[<>]/);
  // Nothing counted as paid.
  if (path === 'cart') {
    const cart = value(await c.call('cart:current'));
    expect(cart.balanceCents).toBe(k.amount);
    expect(cart.tenders.filter((t) => t.status === 'approved')).toEqual([]);
  }
  if (path === 'offline') expect(value(await c.call('queue:list')).items.length).toBe(before.queued);
  // No net charge at the gateway: nothing stored, or stored and voided.
  expect(approvedAtEngine()).toEqual(before.approved);
  // A device fault in the audit log, its detail free of card numbers.
  const faults = auditRows();
  expect(faults.length).toBe(before.faults + 1);
  for (const f of faults) expect(maskCardNumbersInText(f.detail)).toBe(f.detail);
}

beforeAll(async () => {
  sim = new TerminalSimulator();
  sim.script.stepMs = 10;
  const simPort = await sim.listenTcp(0);
  const list = (await (await fetch(`${g.creds.base_url}/terminals`, { headers: standaloneHeaders(g.creds) })).json()) as { terminals: Array<{ id: string }> };
  const put = await fetch(`${g.creds.base_url}/terminals/${list.terminals[0]!.id}`, {
    method: 'PUT',
    headers: standaloneHeaders(g.creds),
    body: JSON.stringify({ terminal: { local_ip_address: '127.0.0.1', port: simPort, tip_percents: { percent_1: 10, percent_2: 15, percent_3: 20 }, tip_enable: 1 } }),
  });
  expect(put.status).toBe(200);
  dir = g.tempDir('ringup-hostile-counter-');
  c = await g.openCounter(dir, { deviceStatusIntervalMs: 0, settings: () => store });
  await c.signInAs('Morgan', '1234');
  expect(await c.call('devices:terminal-status')).toMatchObject({ ok: true, value: { connection: 'connected', tipPercents: [10, 15, 20] } });
}, 30_000);

afterAll(async () => {
  await c?.core.close();
  await sim?.close();
});

describe.each(['direct', 'cart'] as const)('a hostile answer to a %s terminal payment', (path) => {
  it.each(CASES.filter((k) => path !== 'cart' || k.rewrite))('$name: nothing paid, no net charge, a device fault, the sentence', async (k) => {
    const before = await snapshot();
    const { r } = await pay(path, k);
    await expectRefused(path, k, r, before);
  });
});

describe('a hostile answer to an offline terminal sale', () => {
  it('the gateway goes away; the counter still knows its terminal', async () => {
    await g.outage(c);
    expect(await c.call('devices:terminal-status')).toMatchObject({ ok: true, value: { connection: 'connected' } });
  });

  it.each(CASES)('$name: refused before it is queued, a device fault, the sentence', async (k) => {
    const before = await snapshot();
    const { r } = await pay('offline', k);
    await expectRefused('offline', k, r, before);
  });

  it('a queued sale whose amounts were rewritten at rest is checked again before it is forwarded: not sent, a device fault', async () => {
    store = BASE;
    sim.script.tip = 0;
    const queuedBefore = new Set(value(await c.call('queue:list')).items.map((i) => i.clientRef));
    const sold = await c.call('devices:terminal-sale', { subtotalCents: 800, taxCents: 0, tipCents: 0, clientRef: ref('offline') });
    expect(sold.ok).toBe(true);
    // The sale screen showed "Approved offline" and acknowledges it (issue 20, point 3): only then is it sent.
    expect(await c.call('queue:acknowledge', { id: sold.ok ? sold.value.transaction.id : '' })).toMatchObject({ ok: true });
    // The queue keeps it under the core's own reference (issue 20, point 2): the one new item.
    const added = value(await c.call('queue:list')).items.filter((i) => !queuedBefore.has(i.clientRef));
    expect(added).toHaveLength(1);
    const queuedRef = added[0]!.clientRef;
    // Something rewrites the queued sale (a $72 tip on an $8 sale) while it waits.
    const db = new Database(join(dir, 'ringup.db'));
    expect(db.prepare('UPDATE offline_queue SET tip_cents = 7200, amount_cents = 8000 WHERE client_ref = ?').run(queuedRef).changes).toBe(1);
    db.close();
    const before = await snapshot();
    await g.recovery(c);
    expect(approvedAtEngine()).toEqual(before.approved);
    const item = value(await c.call('queue:list')).items.find((i) => i.clientRef === queuedRef);
    expect(item).toMatchObject({ state: 'error' });
    expect(auditRows().length).toBe(before.faults + 1);
  }, 30_000);
});

describe('card numbers', () => {
  it('the card number is nowhere in ringup.db or the engine’s files', () => {
    for (const f of filesOf(dir).filter((x) => x.name.startsWith('ringup.db'))) expect(f.bytes.includes(PAN), f.name).toBe(false);
    const engineFiles = filesOf(join(g.engineDir, 'gateway'));
    expect(engineFiles.map((f) => f.name)).toContain('gateway.sqlite');
    for (const f of engineFiles) expect(f.bytes.includes(PAN), f.name).toBe(false);
  });
});
