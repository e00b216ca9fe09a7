/**
 * The counter's devices through the core's handlers (validating dispatcher, embedded engine
 * on port 0): the installer points the terminal at the simulator over TCP, a cashier sells
 * on it with the tip chosen on the terminal, the live states arrive as events; a check read
 * by the scanner simulator on a socat pseudo-terminal becomes a stored ACH transaction.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/app-core';
import { DEVICE_ERRORS } from '../../electron/core/devices/devices';
import { AUTH_ERRORS } from '../../electron/core/auth/users';
import { DEVICE_MSG } from '../../electron/devices/device-messages';
import { TENDER_MESSAGES } from '../../shared/cart/tender-machine';
import { ScannerSimulator } from '../../electron/devices/sim/scanner-simulator';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { createDispatcher, type Dispatch } from '../../electron/ipc/dispatcher';
import type { HandlerResults, PosUser, TerminalStatePayload } from '../../shared/ipc/contract';
import { defaultTimeouts } from '../../shared/payments/terminal-timeouts';
import type { Result } from '../../shared/result';
import { socatPair, type PtyPair } from '../devices/helpers/socat-pair';
import { clearCart, TEST_DEVICE_PLACES } from '../helpers/core-harness';

const ORIGIN = 'http://127.0.0.1:5999';
let dir: string;
let core: Core;
let dispatch: Dispatch;
let users: PosUser[];
let sim: TerminalSimulator;
let simPort: number;
let pty: PtyPair;
let scanner: ScannerSimulator;

async function call<C extends keyof HandlerResults>(channel: C, arg?: unknown): Promise<Result<HandlerResults[C]>> {
  return (await dispatch(channel, { url: `${ORIGIN}/`, isMainFrame: true }, arg)) as Result<HandlerResults[C]>;
}
async function signInAs(name: string, pin: string): Promise<void> {
  const r = await call('auth:sign-in', { userId: users.find((u) => u.name === name)!.id, pin });
  expect(r.ok).toBe(true);
}
/** A port nothing listens on: one the system just gave out and took back. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ringup-devices-'));
  // The simulators listen on any free port and on a pseudo-terminal: allowed as whoever starts Ringup would (device-places.ts).
  core = await startCore({ dataDir: dir, shell: 'node-host', healthIntervalMs: 0, deviceStatusIntervalMs: 0, devicePlaces: TEST_DEVICE_PLACES });
  dispatch = createDispatcher(core.handlers, { allowedOrigins: [ORIGIN] });
  users = value(await call('auth:users')).users;
  sim = new TerminalSimulator();
  sim.script.stepMs = 30;
  simPort = await sim.listenTcp(0);
  pty = await socatPair();
  scanner = new ScannerSimulator();
  await scanner.attachSerial(pty.b);
});
afterAll(async () => {
  await core?.close();
  await sim?.close();
  await scanner?.close();
  await pty?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a fresh install', () => {
  it('has no terminal set up: the status is none, and the demo terminal waits for an address', async () => {
    await signInAs('Casey', '0000');
    expect(value(await call('devices:terminal-status'))).toEqual({ connection: 'none', terminalId: null, title: null, tipPercents: null });
    expect(await call('devices:terminal-sale', { subtotalCents: 100, taxCents: 0, tipCents: 0, clientRef: 'fresh-1' })).toMatchObject({ ok: false, error: { code: 'no_terminal', message: DEVICE_ERRORS.noTerminal } });
    await signInAs('Jordan', '2468');
    const demo = value(await call('devices:installer-data')).terminals[0]!;
    expect(demo).toMatchObject({ title: 'Demo Terminal', address: { kind: 'tcp', host: '' }, lastRegistrationTs: null });
  });
});

describe('installer', () => {
  it('only installers and managers set devices up; installers take no payments', async () => {
    await signInAs('Casey', '0000');
    const r = await call('devices:installer-data');
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden', message: DEVICE_ERRORS.installerOnly } });
    await signInAs('Jordan', '2468');
    const pay = await call('devices:terminal-sale', { subtotalCents: 100, taxCents: 0, tipCents: 0, clientRef: 'installer-pays' });
    // Refused before the handler runs: money channels are outside the installer's scope (declared in shared/ipc, enforced by electron/ipc/channel-rules.ts).
    expect(pay).toMatchObject({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.installerScope } });
    // The keyed sale path refuses an installer too (the core, not only the hidden Sale tab).
    const keyed = await call('sale:charge', { subtotalCents: 100, taxCents: 0, tipCents: 0, card: { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' }, clientRef: 'installer-keys' });
    expect(keyed).toMatchObject({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.installerScope } });
  });

  it('points the demo terminal at the simulator, tests it, shows terms and sees the signature', async () => {
    await signInAs('Jordan', '2468');
    const data = value(await call('devices:installer-data'));
    const { lastRegistrationTs: _ts, ...demo } = data.terminals[0]!;
    expect(data.applications.length).toBeGreaterThan(0);
    const bad = await call('devices:terminal-save', { ...demo, timeouts: { ...demo.timeouts, pin_entry_timeout: 5 } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const saved = value(await call('devices:terminal-save', { ...demo, address: { kind: 'tcp', host: '127.0.0.1', port: simPort }, tipPercents: [10, 15, 20], timeouts: defaultTimeouts() }));
    expect(saved.address).toEqual({ kind: 'tcp', host: '127.0.0.1', port: simPort });
    expect(saved.lastRegistrationTs).toBeNull();
    // An address typed but not saved is tested directly: nothing to record on.
    expect(value(await call('devices:terminal-test', { address: { kind: 'tcp', host: '127.0.0.1', port: simPort } }))).toMatchObject({ serialNumber: 'SIM0001', lastRegistrationTs: null });
    // The saved terminal's own address: the engine initializes it and records the contact.
    const tested = value(await call('devices:terminal-test', { address: saved.address, terminalId: saved.id }));
    expect(tested.serialNumber).toBe('SIM0001');
    expect(tested.lastRegistrationTs).toBeGreaterThan(0);
    expect(value(await call('devices:installer-data')).terminals.find((x) => x.id === saved.id)?.lastRegistrationTs).toBe(tested.lastRegistrationTs);
    const terms = value(await call('devices:terminal-terms', { terminalId: saved.id, text: 'I agree to the terms.', requireSignature: true }));
    expect(terms.accepted).toBe(true);
    expect(terms.signatureDataUrl).toMatch(/^data:image\/png;base64,iVBOR/);
    // Nothing listening at an allowed port: unreachable. Port 1 is no terminal's port (issue 20, point 6): refused before any connection.
    const gone = await call('devices:terminal-test', { address: { kind: 'tcp', host: '127.0.0.1', port: await closedPort() } });
    expect(gone).toMatchObject({ ok: false, error: { message: DEVICE_MSG.UNREACHABLE } });
    expect(await call('devices:terminal-test', { address: { kind: 'tcp', host: '127.0.0.1', port: 1 } })).toMatchObject({ ok: false, error: { code: 'device_place' } });
  });
});

describe('counter', () => {
  it('sells on the terminal: tip chosen there from its percents, states pushed live', async () => {
    await signInAs('Casey', '0000');
    const status = value(await call('devices:terminal-status'));
    expect(status).toMatchObject({ connection: 'connected', tipPercents: [10, 15, 20] });
    const states: TerminalStatePayload[] = [];
    const off = core.events.subscribe((name, payload) => {
      if (name === 'terminal:state') states.push(payload as TerminalStatePayload);
    });
    sim.script.tip = 3;
    sim.script.stepMs = 300; // long enough for the 200 ms poll to see each screen
    const r = value(await call('devices:terminal-sale', { subtotalCents: 2000, taxCents: 165, tipCents: null, clientRef: 'counter-terminal-1' }));
    off();
    sim.script.stepMs = 30;
    expect(r.approved).toBe(true);
    // 20 % of the amount before tax, the store's default tip base (issue 21): 20.00 → 4.00 (not 20 % of 21.65 = 4.33)
    expect(r.transaction.amountCents).toBe(2165 + 400);
    expect(r.transaction.tipCents).toBe(400);
    expect(states.map((s) => s.state)).toEqual(expect.arrayContaining(['card', 'tip', 'idle']));
  });

  it('Cancel pressed before the sale reaches the terminal ends it there: nothing is asked of the terminal', async () => {
    const before = sim.received.filter((f) => f.command === 'T00').length;
    const [sale, cancel] = await Promise.all([
      call('devices:terminal-sale', { subtotalCents: 1500, taxCents: 0, tipCents: 0, clientRef: 'counter-terminal-early' }),
      call('devices:terminal-cancel'),
    ]);
    expect(cancel.ok).toBe(true);
    expect(sale).toMatchObject({ ok: false, error: { code: 'terminal', message: DEVICE_MSG.CANCELLED } });
    expect(sim.received.filter((f) => f.command === 'T00').length).toBe(before);
    // The next sale is not affected.
    expect(value(await call('devices:terminal-sale', { subtotalCents: 1500, taxCents: 0, tipCents: 0, clientRef: 'counter-terminal-after' })).approved).toBe(true);
  });

  it('a customer abort on the terminal is one plain sentence', async () => {
    const r = await call('devices:terminal-sale', { subtotalCents: 599, taxCents: 0, tipCents: 0, clientRef: 'counter-terminal-2' });
    expect(r).toMatchObject({ ok: false, error: { code: 'terminal', message: DEVICE_MSG.ABORTED } });
  });

  it('a cart pays part on the terminal, a partial approval leaves the rest, cancel voids the terminal tenders', async () => {
    await signInAs('Casey', '0000');
    await clearCart({ call });
    value(await call('cart:add-open', { name: 'Gift', amountCents: 500, taxCategory: 'exempt' }));
    // A chosen part of the balance on the terminal; its tender id is the core's reference (issue 20, point 2), the router transaction's transaction_api_id.
    const part = value(await call('cart:pay-terminal', { amountCents: 300, clientRef: 'cart-terminal-1' }));
    expect(part).toMatchObject({ status: 'open', balanceCents: 200 });
    expect(part.tenders[0]).toMatchObject({ id: expect.stringMatching(/^rr-/) as unknown, kind: 'terminal', status: 'approved', approvedCents: 300 });
    const db = new Database(join(dir, 'gateway', 'gateway.sqlite'), { readonly: true });
    const doc = (id: string) => JSON.parse((db.prepare('SELECT doc FROM transactions WHERE id = ?').get(id) as { doc: string }).doc) as Record<string, unknown>;
    const first = part.tenders[0]!.transactionId!;
    expect(doc(first)).toMatchObject({ transaction_api_id: part.tenders[0]!.id, transaction_amount: '3.00', status_id: 101 });
    // More than the balance is refused before the terminal is woken; the same ref again charges nothing.
    expect(await call('cart:pay-terminal', { amountCents: 201, clientRef: 'cart-terminal-over' })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(value(await call('cart:pay-terminal', { clientRef: 'cart-terminal-1' })).tenders).toHaveLength(1);
    // A cashier may not cancel a sale with a fully approved card tender; the rest is paid in cash.
    // (It takes a manager's PIN at the counter, or a signed-in manager.)
    expect(await call('cart:cancel', { confirmed: true })).toMatchObject({ ok: false, error: { code: 'approval_needed' } });
    expect(value(await call('cart:pay-cash', { tenderedCents: 200 }))).toMatchObject({ status: 'paid', changeCents: 0 });
    expect(doc(first).status_id).toBe(101);

    // 2.01 on the terminal: the engine approves 1.00; the rest stays as the balance.
    value(await call('cart:add-open', { name: 'Gift', amountCents: 201, taxCategory: 'exempt' }));
    const partial = value(await call('cart:pay-terminal', { clientRef: 'cart-terminal-2' }));
    expect(partial.message).toMatch(/Only \$1\.00 of \$2\.01 was approved\. \$1\.01 remains/);
    expect(partial).toMatchObject({ status: 'open', balanceCents: 101 });
    const cancelled = value(await call('cart:cancel', { confirmed: true }));
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.tenders[0]).toMatchObject({ kind: 'terminal', status: 'reversed' });
    expect(doc(partial.tenders[0]!.transactionId!).status_id).toBe(201); // voided

    // Two presses at once (two refs): one terminal sale runs, the other is refused before reaching the terminal.
    value(await call('cart:add-open', { name: 'Gift', amountCents: 700, taxCategory: 'exempt' }));
    const [a, b] = await Promise.all([call('cart:pay-terminal', { clientRef: 'cart-terminal-3' }), call('cart:pay-terminal', { clientRef: 'cart-terminal-4' })]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    const refused = a.ok ? b : a;
    expect(!refused.ok && refused.error.message).toBe(TENDER_MESSAGES.pending);
    // Counted by the cart's tender references (the core's, issue 20 point 2): every tender the cart holds for this sale.
    const tenderRefs = (a.ok ? a.value : b.ok ? b.value : null)!.tenders.map((t) => t.id);
    const charged = db.prepare(`SELECT COUNT(*) AS n FROM transactions WHERE json_extract(doc, '$.transaction_api_id') IN (${tenderRefs.map(() => '?').join(', ')})`).get(...tenderRefs) as { n: number };
    expect(charged.n).toBe(1);
    db.close();
  });

  it("a manager saves a customer's card read on the terminal (no number typed or seen), then charges it; a cashier may not", async () => {
    await signInAs('Casey', '0000');
    const contact = value(await call('vault:contacts', { text: '' }));
    expect(await call('vault:add-on-terminal', { contactId: contact[0]?.id ?? '1' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await signInAs('Morgan', '1234');
    const pat = value(await call('vault:add-contact', { firstName: 'Pat', lastName: 'Terminal', email: '' }));
    const saved = value(await call('vault:add-on-terminal', { contactId: pat.id }));
    expect(saved).toMatchObject({ kind: 'card', contactId: pat.id });
    expect(saved.lastFour).toMatch(/^\d{4}$/);
    expect(saved.label).toContain(`•••• ${saved.lastFour}`);
    const listed = value(await call('vault:contacts', { text: 'Terminal' }));
    expect(listed[0]!.methods.map((m) => m.id)).toContain(saved.id);
    const paid = value(await call('vault:charge', { id: saved.id, subtotalCents: 1200, taxCents: 0, tipCents: 0, clientRef: 'vault-terminal-1' }));
    expect(paid).toMatchObject({ approved: true, transaction: { amountCents: 1200, lastFour: saved.lastFour } });
    // A terminal that is not there: the manager is told in one sentence, nothing is saved.
    await sim.close();
    const gone = await call('vault:add-on-terminal', { contactId: pat.id });
    expect(gone.ok).toBe(false);
    expect(value(await call('vault:contacts', { text: 'Terminal' }))[0]!.methods).toHaveLength(1);
    simPort = await sim.listenTcp(simPort);
  });

  it('a scanned check becomes a stored ACH debit with check number, MICR and SEC code', async () => {
    await signInAs('Jordan', '2468');
    const models = value(await call('devices:installer-data')).scannerModels;
    value(await call('devices:scanner-save', { title: 'Front desk', serialNumber: 'SCN0001', modelId: Number(models[0]!.id), path: pty.a }));
    expect(value(await call('devices:scanner-test', { path: pty.a })).routing).toBe('072000326');
    await signInAs('Casey', '0000');
    const check = value(await call('devices:check-scan'));
    expect(check).toEqual({ routing: '072000326', account: '12345678', checkNumber: '1001', micr: 'T072000326T 12345678U 1001' });
    const paid = value(await call('devices:check-pay', { subtotalCents: 4500, taxCents: 0, check, holderName: 'Pat Doe', clientRef: 'check-1' }));
    expect(paid.transaction.amountCents).toBe(4500);
    expect(paid.approved).toBe(true);
    const db = new Database(join(dir, 'gateway', 'gateway.sqlite'), { readonly: true });
    const row = db.prepare('SELECT doc FROM transactions WHERE id = ?').get(paid.transaction.id) as { doc: string };
    db.close();
    expect(JSON.parse(row.doc)).toMatchObject({ payment_method: 'ach', check_number: '1001', last_four: '5678', ach_sec_code: 'POP', status_id: 131 });
    // The MICR line carries the full account number: the engine reads it and never stores it.
    expect(row.doc).not.toContain('12345678');
    scanner.micr = 'T0720?0326T 12345678U 1001';
    expect(await call('devices:check-scan')).toMatchObject({ ok: false, error: { message: DEVICE_MSG.MICR_UNREADABLE } });
  });
});
