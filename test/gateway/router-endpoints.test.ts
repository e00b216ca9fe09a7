/**
 * Router endpoints over real sockets: the engine on port 0 drives the terminal simulator on
 * 127.0.0.1 through the same driver as the app. A terminal second is 4 ms (deviceSecondMs).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEVICE_MSG } from '../../electron/devices/device-messages';
import { MOCK_AMOUNTS, SIM_CARDS, mockOutcome } from '../../electron/devices/sim/mock-amounts';
import { TERMINAL_TIMEOUTS } from '../../shared/payments/terminal-timeouts';
import { DEFAULT_SCRIPT, TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { DEVICE_TERMS_DECLINED } from '../../electron/gateway/merchant/device-terms';
import { REF } from '../../electron/gateway/merchant/schema-migrations';
import { DATABASE_FILE } from '../../electron/gateway/engine';
import { openDatabase } from '../../electron/gateway/framework/database';
import { fmt } from '../../electron/gateway/framework/errors';
import { ROUTER_MSG, TERMINAL_ANSWER_KEY } from '../../electron/gateway/router/router-messages';
import { DEMO_TERMINAL_MIGRATION, MOCK_TERMINAL_MIGRATION } from '../../electron/gateway/router/router-module';
import { socatPair } from '../devices/helpers/socat-pair';
import { TestEngine, errorsOf } from './helpers/engine-fixture';

let t: TestEngine;
let sim: TerminalSimulator;
let terminalId: string;

async function addTerminal(extra: Record<string, unknown>): Promise<string> {
  const a = await t.post('/terminals', {
    terminal: { location_id: t.locationId, serial_number: `SN${Math.random().toString(36).slice(2, 9)}`, terminal_application_id: REF.PAX_BROADPOS, terminal_manufacturer_id: REF.PAX, ...extra },
  });
  expect(a.status).toBe(201);
  return a.body.terminal.id as string;
}

const sale = (amount: string, extra: Record<string, unknown> = {}) =>
  t.post('/routertransactions', { routertransaction: { action: 'sale', payment_method: 'cc', location_id: t.locationId, terminal_id: terminalId, transaction_amount: amount, ...extra } });

beforeAll(async () => {
  t = await TestEngine.start({ deviceSecondMs: 4 });
  sim = new TerminalSimulator({ secondMs: 4, serialNumber: 'SIM-ROUTER' });
  const port = await sim.listenTcp(0);
  terminalId = await addTerminal({ local_ip_address: '127.0.0.1', port, tip_percents: { percent_1: 15, percent_2: 18, percent_3: 20 } });
});
afterAll(async () => {
  await sim.close();
  await t.close();
});
beforeEach(() => {
  sim.script = { ...DEFAULT_SCRIPT, stepMs: 5 };
  sim.faults = {};
});

describe('POST /v2/routertransactions', () => {
  it('runs a chip sale on the terminal with its tip percents and stores the transaction', async () => {
    sim.script.tip = 2;
    const a = await sale('10.00', { transaction_api_id: 'router-1' });
    expect(a.status).toBe(201);
    const r = a.body.routertransaction;
    expect(r).toMatchObject({ status_id: 101, transaction_amount: '11.80', tip_amount: '1.80', entry_mode_id: 'C', last_four: '1111', terminal_id: terminalId });
    expect(r.emv_receipt_data).toMatchObject({ AID: 'A0000000031010', CVM: 'NO CVM', TSI: 'E800', TVR: '0000008000', APPLAB: 'VISA CREDIT' });
    expect(r._links.self.href).toBe(t.url(`/transactions/${r.id}`));
    const stored = await t.get(`/transactions/${r.id}`);
    expect(stored.body.transaction).toMatchObject({ id: r.id, entry_mode_id: 'C', auth_amount: '11.80' });
    expect(decodeTips()).toEqual([15, 18, 20]);
    const term = await t.get(`/terminals/${terminalId}`);
    expect(term.body.terminal.last_registration_ts).toBeGreaterThan(0);
    // Idempotent: the same transaction_api_id answers the record without asking the terminal.
    const before = sim.received.length;
    expect((await sale('10.00', { transaction_api_id: 'router-1' })).body.routertransaction.id).toBe(r.id);
    expect(sim.received.length).toBe(before);
  });

  it('parallel requests with the same transaction_api_id run the terminal once and answer the same sale', async () => {
    sim.script.stepMs = 60;
    const before = sim.received.filter((f) => f.command === 'T00').length;
    const [a, b] = await Promise.all([sale('9.00', { transaction_api_id: 'race-1', tip_amount: '0.00' }), sale('9.00', { transaction_api_id: 'race-1', tip_amount: '0.00' })]);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.routertransaction.id).toBe(a.body.routertransaction.id);
    expect(sim.received.filter((f) => f.command === 'T00').length - before).toBe(1);
    const list = await t.get('/transactions?transaction_api_id=race-1');
    expect(list.body.transactions).toHaveLength(1);
  });

  it('swiped (7.12) has no EMV data; the processor still decides by amount (5.00 declines)', async () => {
    const s = await sale('7.12', { tip_amount: '0.00' });
    expect(s.body.routertransaction).toMatchObject({ entry_mode_id: 'S', emv_receipt_data: null });
    const d = await sale('5.00', { tip_amount: '0.00' });
    expect(d.status).toBe(201);
    expect(d.body.routertransaction.status_id).toBe(301);
  });

  it('terminal errors: card entry timeout and customer abort are 422 with the message, unreachable is 503', async () => {
    const to = await sale('7.72');
    expect(to.status).toBe(422);
    expect(errorsOf(to, 'terminal_id')).toEqual(['Card Entry Timeout']);
    const ab = await sale('5.99');
    expect(errorsOf(ab, 'terminal_id')).toEqual([DEVICE_MSG.ABORTED]);
    const gone = await addTerminal({ local_ip_address: '127.0.0.1', port: 1 });
    const u = await t.post('/routertransactions', { routertransaction: { action: 'sale', location_id: t.locationId, terminal_id: gone, transaction_amount: '1.00' } });
    expect(u.status).toBe(503);
    expect(errorsOf(u, 'terminal_id')).toEqual([DEVICE_MSG.UNREACHABLE]);
    sim.faults.vanishAt = 'card';
    const vanished = await sale('10.00', { tip_amount: '0.00' });
    expect(vanished.status).toBe(503);
    expect(errorsOf(vanished, 'terminal_id')).toEqual([DEVICE_MSG.DISCONNECTED]);
  });

  it('is bounded by the terminal overall_timeout', async () => {
    const short = await addTerminal({ local_ip_address: '127.0.0.1', port: (await portOf()), terminal_timeouts: { overall_timeout: 30 } });
    const a = await t.post('/routertransactions', { routertransaction: { action: 'sale', location_id: t.locationId, terminal_id: short, transaction_amount: '7.71' } });
    expect(a.status).toBe(422);
    expect(errorsOf(a, 'terminal_id')).toEqual(['Overall Request Timeout']);
  });

  it('the counter follows the terminal state live and cancels (Ringup extension)', async () => {
    sim.script.card = 'none';
    const pending = sale('12.00');
    let state = '';
    for (let i = 0; i < 200 && state !== 'card'; i++) {
      state = (await t.get(`/terminals/${terminalId}/state`)).body.terminalstate.state as string;
      if (state !== 'card') await new Promise((r) => setTimeout(r, 5));
    }
    expect(state).toBe('card');
    expect((await t.get(`/terminals/${terminalId}/state`)).body.terminalstate).toMatchObject({ busy: true, prompt: 'Insert, tap or swipe card' });
    expect((await t.post(`/terminals/${terminalId}/cancel`)).status).toBe(200);
    const a = await pending;
    expect(a.status).toBe(422);
    expect(errorsOf(a, 'terminal_id')).toEqual([DEVICE_MSG.CANCELLED]);
    expect((await t.get(`/terminals/${terminalId}/state`)).body.terminalstate).toMatchObject({ busy: false, state: 'idle' });
  });

  it('a Cancel that arrives before its sale (named by transaction_api_id) ends that sale before the terminal is asked', async () => {
    const before = sim.received.length;
    const c = await t.post(`/terminals/${terminalId}/cancel`, { terminalcancel: { transaction_api_id: 'early-1' } });
    expect(c.status).toBe(200);
    const a = await sale('6.00', { transaction_api_id: 'early-1', tip_amount: '0.00' });
    expect(a.status).toBe(422);
    expect(errorsOf(a, 'terminal_id')).toEqual([DEVICE_MSG.CANCELLED]);
    expect(sim.received.length).toBe(before);
    // Another sale is not touched by it, and the cancel is used up: the same id may run again.
    expect((await sale('6.00', { transaction_api_id: 'other-1', tip_amount: '0.00' })).status).toBe(201);
    expect((await sale('6.00', { transaction_api_id: 'early-1', tip_amount: '0.00' })).status).toBe(201);
  });

  it('initializes a terminal (Ringup extension): answers what it is and records last_registration_ts', async () => {
    const fresh = await addTerminal({ local_ip_address: '127.0.0.1', port: await portOf() });
    expect((await t.get(`/terminals/${fresh}`)).body.terminal.last_registration_ts).toBeNull();
    const a = await t.post(`/terminals/${fresh}/initialize`);
    expect(a.status).toBe(200);
    expect(a.body.terminalinfo).toMatchObject({ terminal_id: fresh, serial_number: 'SIM-ROUTER', model: 'A920 (simulated)', application: 'BroadPOS' });
    expect(a.body.terminalinfo.last_registration_ts).toBeGreaterThan(0);
    expect((await t.get(`/terminals/${fresh}`)).body.terminal.last_registration_ts).toBe(a.body.terminalinfo.last_registration_ts);
    expect(sim.received.at(-1)?.command).toBe('A00');
    const bare = await addTerminal({});
    expect(errorsOf(await t.post(`/terminals/${bare}/initialize`), 'terminal_id')).toEqual([ROUTER_MSG.TERMINAL_NO_ADDRESS]);
    const gone = await addTerminal({ local_ip_address: '127.0.0.1', port: 1 });
    const u = await t.post(`/terminals/${gone}/initialize`);
    expect(u.status).toBe(503);
    expect((await t.get(`/terminals/${gone}`)).body.terminal.last_registration_ts).toBeNull();
    expect((await t.post('/terminals/nope/initialize')).status).toBe(404);
  });

  it('a tampered terminal does not steer the charge: an approval above the request plus its allowed tip is refused and reversed on the terminal', async () => {
    const count = async () => ((await t.get(`/transactions?page_size=1&terminal_id=${terminalId}`)).body.meta.pagination.totalCount as number);
    const voids = () => sim.received.filter((f) => f.command === 'T00' && f.fields[0] === '16');
    const before = await count();
    const voidsBefore = voids().length;
    // The tip was chosen at the counter (0.00): the terminal may add none, yet reports 100.00 more.
    sim.faults.overReport = { approvedCents: 10_000 };
    const a = await sale('10.00', { tip_amount: '0.00', transaction_api_id: 'tampered-1' });
    expect(a.status).toBe(422);
    expect(errorsOf(a, 'terminal_id')).toEqual([fmt(ROUTER_MSG.AMOUNT_NOT_ASKED, { reported: '110.00', asked: '10.00', tip: '0.00' }) + ' ' + ROUTER_MSG.REVERSED]);
    // The terminal's tip prompt (15/18/20 % of 10.00: at most 2.00) cannot become 5.00, even when its sums add up.
    sim.script.tip = 3;
    sim.faults.overReport = { approvedCents: 300, tipCents: 300 };
    const b = await sale('10.00', { transaction_api_id: 'tampered-2' });
    expect(errorsOf(b, 'terminal_id')).toEqual([fmt(ROUTER_MSG.AMOUNT_NOT_ASKED, { reported: '15.00', asked: '10.00', tip: '2.00' }) + ' ' + ROUTER_MSG.REVERSED]);
    // An auth and a refund take no tip at all.
    sim.faults.overReport = { approvedCents: 1 };
    expect((await sale('4.00', { action: 'authonly', transaction_api_id: 'tampered-3' })).status).toBe(422);
    // Nothing was charged or stored: no record, under its transaction_api_id or at all.
    expect(await count()).toBe(before);
    for (const id of ['tampered-1', 'tampered-2', 'tampered-3']) expect((await t.get(`/transactions/${id}?api_id=1&location_id=${t.locationId}`)).status).toBe(404);
    // Each approval was reversed on the terminal (a void naming its reference).
    expect(voids().length - voidsBefore).toBe(3);
    // An honest answer right after is charged as asked.
    sim.script.tip = 3;
    const ok = await sale('10.00', { transaction_api_id: 'honest-1' });
    expect(ok.status).toBe(201);
    expect(ok.body.routertransaction).toMatchObject({ transaction_amount: '12.00', tip_amount: '2.00', auth_amount: '12.00', status_id: 101 });
  });

  it('takes the terminal\'s percents of tip_base_amount, offers tip_amounts instead when sent, and bounds the tip by them (Ringup, issue 21)', async () => {
    // $10.75 with tax, tips before tax: 15 % of 10.00 = 1.50 (not 1.61).
    sim.script.tip = 1;
    const a = await sale('10.75', { tax: '0.75', tip_base_amount: '10.00', transaction_api_id: 'tip-base-1' });
    expect(a.body.routertransaction).toMatchObject({ transaction_amount: '12.25', tip_amount: '1.50' });
    // Smart tips: the second flat amount, 2.00 on a 4.30 sale (46 %: far above any percent, allowed as offered).
    sim.script.tip = 2;
    const b = await sale('4.30', { tip_base_amount: '4.00', tip_amounts: ['1.00', '2.00', '3.00'], transaction_api_id: 'tip-flat-1' });
    expect(b.body.routertransaction).toMatchObject({ transaction_amount: '6.30', tip_amount: '2.00' });
    // A terminal reporting more than the base allows is refused: 20 % of 10.00 is at most 2.00.
    sim.script.tip = 3;
    sim.faults.overReport = { approvedCents: 15, tipCents: 15 };
    const c = await sale('10.75', { tip_base_amount: '10.00', transaction_api_id: 'tip-base-over' });
    expect(errorsOf(c, 'terminal_id')).toEqual([fmt(ROUTER_MSG.AMOUNT_NOT_ASKED, { reported: '12.90', asked: '10.75', tip: '2.00' }) + ' ' + ROUTER_MSG.REVERSED]);
    // Bad tip fields are refused in the envelope before the terminal is asked.
    sim.faults = {};
    const before = sim.received.length;
    expect(errorsOf(await sale('10.00', { tip_base_amount: '10.01' }), 'tip_base_amount')).toEqual([ROUTER_MSG.TIP_BASE_INVALID]);
    expect(errorsOf(await sale('10.00', { tip_amounts: ['1.00', '2.00'] }), 'tip_amounts')).toEqual([ROUTER_MSG.TIP_AMOUNTS_INVALID]);
    expect(errorsOf(await sale('10.00', { tip_amounts: '' }), 'tip_amounts')).toEqual([ROUTER_MSG.TIP_AMOUNTS_INVALID]);
    expect(sim.received.length).toBe(before);
  });

  it('validates before the terminal is asked', async () => {
    const before = sim.received.length;
    expect(errorsOf(await sale('abc'), 'transaction_amount').length).toBe(1);
    expect(errorsOf(await sale('1.00', { action: 'void' }), 'action')).toEqual([ROUTER_MSG.ACTION_INVALID]);
    expect(errorsOf(await sale('1.00', { terminal_id: 'nope' }), 'terminal_id').length).toBe(1);
    const bare = await addTerminal({});
    expect(errorsOf(await sale('1.00', { terminal_id: bare }), 'terminal_id')).toEqual([ROUTER_MSG.TERMINAL_NO_ADDRESS]);
    expect(sim.received.length).toBe(before);
  });
});

describe('POST /v2/routeraccountvaults and /v2/deviceterms on the terminal', () => {
  it('stores a vault from a card read', async () => {
    const c = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'Doe' } });
    const a = await t.post('/routeraccountvaults', { routeraccountvault: { payment_method: 'cc', action: 'store', location_id: t.locationId, contact_id: c.body.contact.id, terminal_id: terminalId } });
    expect(a.status).toBe(201);
    expect(a.body.accountvault).toMatchObject({ last_four: '1111', contact_id: c.body.contact.id });
  });

  it('prompts the terms on the terminal and stores the signature drawn, or the decline', async () => {
    const a = await t.post('/deviceterms?expand=signature', { deviceterm: { location_id: t.locationId, terminal_id: terminalId, require_signature: true, terms_conditions: 'I agree to the rental terms.' } });
    expect(a.status).toBe(201);
    expect(a.body.deviceterm.reason_code_id).toBe(1000);
    expect(a.body.deviceterm.signature.signature).toMatch(/^iVBOR/);
    expect(sim.states).toContain('terms');
    sim.script.terms = 'decline';
    const d = await t.post('/deviceterms', { deviceterm: { location_id: t.locationId, terminal_id: terminalId, require_signature: true, terms_conditions: 'I agree.' } });
    expect(d.body.deviceterm.reason_code_id).toBe(DEVICE_TERMS_DECLINED);
    sim.script.terms = 'no-answer';
    const n = await t.post('/deviceterms', { deviceterm: { location_id: t.locationId, terminal_id: terminalId, require_signature: false, terms_conditions: 'I agree.' } });
    expect(n.status).toBe(422);
    expect(errorsOf(n, 'terminal_id')).toEqual(['Timeout waiting for Customer']);
  });

  it('drives a terminal on a serial line (communication_type serial + serial_path)', async () => {
    const pty = await socatPair();
    const serialSim = new TerminalSimulator({ secondMs: 4, serialNumber: 'SIM-SERIAL' });
    serialSim.script.stepMs = 5;
    try {
      await serialSim.attachSerial(pty.b);
      const id = await addTerminal({ communication_type: 'serial', serial_path: pty.a });
      const a = await sale('7.11', { terminal_id: id, tip_amount: '0.00' });
      expect(a.status).toBe(201);
      expect(a.body.routertransaction).toMatchObject({ entry_mode_id: 'S', status_id: 101, terminal_serial_number: expect.any(String) });
      expect(serialSim.received.at(-1)?.command).toBe('T00');
    } finally {
      await serialSim.close();
      await pty.close();
    }
  });

  it('never stores or answers a full card number, even from a terminal that sends one: its answer is a device fault, reversed, nothing charged (issue 20, point 1)', async () => {
    const pan = SIM_CARDS.visa.pan;
    sim.faults.fullPan = true;
    const a = await sale('7.14', { tip_amount: '0.00', transaction_api_id: 'full-pan-1' });
    expect(sim.faults.fullPan).toBe(false); // the terminal did send it
    expect(a.status).toBe(422);
    expect(errorsOf(a, 'terminal_id')).toEqual([`${DEVICE_MSG.FAULT} ${ROUTER_MSG.REVERSED}`]);
    // The terminal's answer travels masked, for the counter's device-fault record.
    expect(errorsOf(a, TERMINAL_ANSWER_KEY)[0]).toContain('************1111');
    expect(JSON.stringify(a.body)).not.toContain(pan);
    expect((await t.get(`/transactions/full-pan-1?api_id=1&location_id=${t.locationId}`)).status).toBe(404);
    // Every file of the engine's data folder: the database, its write-ahead log, any log.
    const files = readdirSync(t.dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.map((f) => f.name)).toContain('gateway.sqlite');
    for (const f of files) expect(readFileSync(join(f.parentPath, f.name)).includes(pan), f.name).toBe(false);
  });
});

function decodeTips(): number[] | null {
  const f = sim.received.filter((x) => x.command === 'T00').at(-1);
  const m = /tip_percents=([\d/]+)/.exec(f?.fields[4] ?? '');
  return m ? (m[1] as string).split('/').map(Number) : null;
}

async function portOf(): Promise<number> {
  const a = await t.get(`/terminals/${terminalId}`);
  return a.body.terminal.port as number;
}

describe('a second request on a busy terminal', () => {
  // Its own engine at 50 ms a terminal second: the first sale waits 6 s for the card, time
  // enough for the second request and the cancel on a loaded machine.
  let e: TestEngine;
  let busySim: TerminalSimulator;
  let id: string;
  beforeAll(async () => {
    e = await TestEngine.start({ deviceSecondMs: 50 });
    busySim = new TerminalSimulator({ secondMs: 50, serialNumber: 'SIM-BUSY' });
    busySim.script.stepMs = 5;
    const port = await busySim.listenTcp(0);
    const a = await e.post('/terminals', {
      terminal: { location_id: e.locationId, serial_number: 'BUSY-1', terminal_application_id: REF.PAX_BROADPOS, terminal_manufacturer_id: REF.PAX, local_ip_address: '127.0.0.1', port },
    });
    id = a.body.terminal.id as string;
  });
  afterAll(async () => {
    await busySim.close();
    await e.close();
  });

  it('is refused 409 without touching the first: its live state stays and its Cancel still works', async () => {
    busySim.script.card = 'none';
    const body = (amount: string) => ({ routertransaction: { action: 'sale', location_id: e.locationId, terminal_id: id, transaction_amount: amount, tip_amount: '0.00' } });
    const first = e.post('/routertransactions', body('12.00'));
    const stateNow = async () => (await e.get(`/terminals/${id}/state`)).body.terminalstate as { state: string; busy: boolean };
    await vi.waitFor(async () => expect((await stateNow()).state).toBe('card'), { timeout: 5000, interval: 20 });

    const second = await e.post('/routertransactions', body('3.00'));
    expect(second.status).toBe(409);
    expect(errorsOf(second, 'terminal_id')).toEqual([DEVICE_MSG.BUSY]);
    const terms = await e.post('/deviceterms', { deviceterm: { location_id: e.locationId, terminal_id: id, require_signature: false, terms_conditions: 'I agree.' } });
    expect(terms.status).toBe(409);
    // Refused by the engine, before a driver was made: the terminal saw one request only.
    expect(busySim.received.map((f) => f.command)).toEqual(['T00']);
    expect(await stateNow()).toMatchObject({ state: 'card', busy: true });

    expect((await e.post(`/terminals/${id}/cancel`)).status).toBe(200);
    const a = await first;
    expect(a.status).toBe(422);
    expect(errorsOf(a, 'terminal_id')).toEqual([DEVICE_MSG.CANCELLED]);
    expect(await stateNow()).toMatchObject({ state: 'idle', busy: false });
  });
});

describe('the seeded demo terminal: the sandbox\'s built-in mock terminal', () => {
  const demoOf = async (e: TestEngine) => ((await e.get('/terminals?page_size=100')).body.terminals as Record<string, unknown>[]).find((x) => x.serial_number === 'SIM0000001')!;
  const onDemo = async (amount: string, extra: Record<string, unknown> = {}) => sale(amount, { terminal_id: (await demoOf(t)).id, ...extra });

  it('answers router requests with no address and no simulator to run: a sale, a card stored, a connection test', async () => {
    const demo = await demoOf(t);
    expect(demo).toMatchObject({ title: 'Demo Terminal', local_ip_address: null, port: 10009, communication_type: 'mock' });
    const a = await onDemo('1.00');
    expect(a.status).toBe(201);
    expect(a.body.routertransaction).toMatchObject({ status_id: 101, transaction_amount: '1.00', entry_mode_id: 'C', first_six: '411111', last_four: '1111', terminal_id: demo.id, terminal_serial_number: 'SIM0000001' });
    const c = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'Mock' } });
    const v = await t.post('/routeraccountvaults', { routeraccountvault: { payment_method: 'cc', action: 'store', location_id: t.locationId, contact_id: c.body.contact.id, terminal_id: demo.id } });
    expect(v.status).toBe(201);
    expect(v.body.accountvault).toMatchObject({ last_four: '1111', contact_id: c.body.contact.id });
    const init = await t.post(`/terminals/${String(demo.id)}/initialize`);
    expect(init.body.terminalinfo).toMatchObject({ serial_number: 'SIM0000001', application: 'BroadPOS' });
    expect((await demoOf(t)).last_registration_ts).toBeGreaterThan(0);
    // Its device terms keep the engine's simulated customer (#decline declines).
    const terms = await t.post('/deviceterms', { deviceterm: { location_id: t.locationId, terminal_id: demo.id, require_signature: false, terms_conditions: 'No thanks #decline' } });
    expect(terms.body.deviceterm.reason_code_id).toBe(DEVICE_TERMS_DECLINED);
  });

  it('follows the mock-terminal amounts: errors, entry modes and CVMs, brands, the named timeouts, delays', async () => {
    const answers: Record<string, string> = {};
    const amounts = [...Object.keys(MOCK_AMOUNTS).map(Number), 801, 802];
    // 8.01 and 8.02 are also the processor's slow answers (GATEWAY-FACTS): its wait costs no time here.
    t.clock.instantSleep = true;
    try {
      for (const cents of amounts) {
        const a = await onDemo((cents / 100).toFixed(2), { tip_amount: '0.00' });
        answers[cents] = a.status === 201 ? `201 ${a.body.routertransaction.entry_mode_id} ${a.body.routertransaction.last_four}` : `${a.status} ${errorsOf(a, 'terminal_id').join(' ')}`;
      }
    } finally {
      t.clock.instantSleep = false;
    }
    const expected: Record<string, string> = {};
    const fourOf = (brand?: keyof typeof SIM_CARDS) => SIM_CARDS[brand ?? 'visa'].lastFour;
    for (const cents of amounts) {
      const o = mockOutcome(cents);
      expected[cents] =
        o.kind === 'read' ? `201 ${o.entryMode} ${fourOf(o.brand)}`
        : o.kind === 'delay' ? `201 C ${fourOf()}`
        : o.kind === 'connect-error' ? `422 ${DEVICE_MSG.CONNECT_ERROR}`
        : o.kind === 'aborted' ? `422 ${DEVICE_MSG.ABORTED}`
        : o.kind === 'timeout' ? '422 TIMEOUT'
        : `422 ${TERMINAL_TIMEOUTS[o.key].message}`;
    }
    expect(answers).toEqual(expected);
  });

  it('a production-mode engine has no mock terminal: its demo terminal waits for an address', async () => {
    const p = await TestEngine.start({ production: true, deviceSecondMs: 4 });
    try {
      const demo = await demoOf(p);
      expect(demo).toMatchObject({ local_ip_address: null, communication_type: 'tcp' });
      const a = await p.post('/routertransactions', { routertransaction: { action: 'sale', location_id: p.locationId, terminal_id: demo.id, transaction_amount: '1.00' } });
      expect(errorsOf(a, 'terminal_id')).toEqual([ROUTER_MSG.TERMINAL_NO_ADDRESS]);
      // Nor does a terminal declared "mock" there.
      const m = await p.post('/terminals', { terminal: { location_id: p.locationId, serial_number: 'M-1', terminal_application_id: REF.PAX_BROADPOS, terminal_manufacturer_id: REF.PAX, communication_type: 'mock' } });
      const b = await p.post('/routertransactions', { routertransaction: { action: 'sale', location_id: p.locationId, terminal_id: m.body.terminal.id, transaction_amount: '1.00' } });
      expect(errorsOf(b, 'terminal_id')).toEqual([ROUTER_MSG.TERMINAL_NO_ADDRESS]);
    } finally {
      await p.close();
    }
  });

  it('an installer who gives it an address makes it a real terminal: the address is driven, not the mock', async () => {
    const e = await TestEngine.start({ deviceSecondMs: 4 });
    const real = new TerminalSimulator({ secondMs: 4, serialNumber: 'REAL-1' });
    real.script.stepMs = 5;
    try {
      const port = await real.listenTcp(0);
      const demo = await demoOf(e);
      // What the counter's installer screen sends (electron/core/devices/devices.ts, devices:terminal-save).
      expect((await e.put(`/terminals/${String(demo.id)}`, { terminal: { communication_type: 'tcp', local_ip_address: '127.0.0.1', port } })).status).toBe(200);
      const a = await e.post('/routertransactions', { routertransaction: { action: 'sale', location_id: e.locationId, terminal_id: demo.id, transaction_amount: '1.00', tip_amount: '0.00' } });
      expect(a.status).toBe(201);
      expect(real.received.map((f) => f.command)).toEqual(['T00']);
    } finally {
      await real.close();
      await e.close();
    }
  });

  it('an older database: its untouched demo terminal (127.0.0.1:10009, tcp) becomes the mock terminal, an edited one keeps its address', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ringup-demo-term-'));
    try {
      const olden = (registered: number | null) => {
        const db = openDatabase(join(dataDir, DATABASE_FILE));
        db.prepare("UPDATE terminals SET local_ip_address = '127.0.0.1', port = 10009, communication_type = 'tcp', last_registration_ts = ? WHERE serial_number = 'SIM0000001'").run(registered);
        db.prepare('DELETE FROM schema_migrations WHERE version IN (?, ?)').run(DEMO_TERMINAL_MIGRATION, MOCK_TERMINAL_MIGRATION);
        db.close();
      };
      await (await TestEngine.start({ dataDir })).close(false);
      olden(null);
      let e = await TestEngine.start({ dataDir });
      expect(await demoOf(e)).toMatchObject({ local_ip_address: null, communication_type: 'mock' });
      await e.close(false);
      // Once it has talked to a terminal there, the address is the merchant's: it stays.
      olden(1_700_000_000);
      e = await TestEngine.start({ dataDir });
      expect(await demoOf(e)).toMatchObject({ local_ip_address: '127.0.0.1', communication_type: 'tcp' });
      await e.close(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
