/**
 * The EMV terminal driver against the simulator over real TCP sockets on 127.0.0.1: every
 * operation, every mock amount of GATEWAY-FACTS, every timeout of the terminal table, and
 * the wire's failure modes (NAK, wrong LRC, garbage, a terminal that vanishes, cancel).
 * A second is scaled to a few milliseconds (secondMs) so the real timeout values run.
 */
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TERMINAL_TIMEOUTS, defaultTimeouts, type TimeoutKey } from '../../shared/payments/terminal-timeouts';
import { openTcpLink } from '../../electron/devices/device-link';
import { DEVICE_MSG, DeviceError } from '../../electron/devices/device-messages';
import { decryptCardRead } from '../../electron/devices/reader-encryption';
import { MOCK_AMOUNTS, SIM_CARDS } from '../../electron/devices/sim/mock-amounts';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { decodeSettings, type OperationSettings } from '../../electron/devices/terminal-commands';
import { TerminalFault } from '../../electron/devices/terminal-answer';
import { TerminalDriver } from '../../electron/devices/terminal-driver';
import { rejectionOf } from '../helpers/rejection';

const SECOND_MS = 4;
let sim: TerminalSimulator;
let port: number;

function driver(settings: Partial<OperationSettings> = {}) {
  return new TerminalDriver({
    connect: () => openTcpLink('127.0.0.1', port),
    settings: { timeouts: defaultTimeouts(), tipPercents: null, ...settings },
    secondMs: SECOND_MS,
    ackTimeoutMs: 1000,
  });
}

const failure = (p: Promise<unknown>) => rejectionOf(p, DeviceError);

beforeEach(async () => {
  sim = new TerminalSimulator({ secondMs: SECOND_MS, serialNumber: 'SIM-TEST-1' });
  sim.script.stepMs = 5;
  port = await sim.listenTcp(0);
});
afterEach(async () => {
  await sim.close();
});

describe('terminal driver over TCP', () => {
  it('initializes and reads the terminal serial number', async () => {
    const info = await driver().initialize();
    expect(info.serialNumber).toBe('SIM-TEST-1');
  });

  it('a store-and-forward read (saf=1) answers the card encrypted for the gateway, never in the clear; a normal read carries none', async () => {
    const plain = await driver().sale({ amountCents: 714, ecrRef: 'r0' });
    expect(plain.encrypted).toBeNull();
    const r = await driver().sale({ amountCents: 714, ecrRef: 'r1', storeAndForward: true });
    expect(r).toMatchObject({ entryMode: 'C', lastFour: '1111', encrypted: { eFormat: 'ksn', eSerialNumber: expect.stringMatching(/^[0-9A-F]{20}$/) } });
    expect(JSON.stringify(r)).not.toContain('4111111111111111');
    // Only the gateway's key opens it: the card, its entry mode and chip data.
    expect(decryptCardRead(r.encrypted!.eTrackData, r.encrypted!.eSerialNumber)).toMatchObject({ pan: '4111111111111111', expDate: '1230', entryMode: 'C', emv: { AID: 'A0000000031010' } });
    // Each read has its own key serial number.
    const next = await driver().sale({ amountCents: 718, ecrRef: 'r2', storeAndForward: true });
    expect(next.encrypted!.eSerialNumber).not.toBe(r.encrypted!.eSerialNumber);
    expect(decryptCardRead(next.encrypted!.eTrackData, next.encrypted!.eSerialNumber)?.entryMode).toBe('P');
  });

  it('runs a chip sale, follows the states and sends the terminal settings with the request', async () => {
    const timeouts = { ...defaultTimeouts(), card_entry_timeout: 45 };
    const d = driver({ timeouts });
    const seen: string[] = [];
    d.onState((s) => seen.push(s));
    const r = await d.sale({ amountCents: 714, ecrRef: 'r1' });
    expect(r).toMatchObject({ resultCode: '000000', entryMode: 'C', cvm: 'none', approvedCents: 714, lastFour: '1111', firstSix: '411111' });
    expect(r.emv).toMatchObject({ AID: 'A0000000031010', CVM: 'NO CVM', TSI: 'E800', TVR: '0000008000' });
    expect(seen).toEqual(expect.arrayContaining(['card', 'processing', 'done']));
    const sent = decodeSettings(sim.received.at(-1)?.fields[4]);
    expect(sent.settings.timeouts.card_entry_timeout).toBe(45);
  });

  it('shows the configured tip percents and adds the chosen one (20% of 10.00)', async () => {
    sim.script.tip = 3;
    const d = driver({ tipPercents: [15, 18, 20] });
    const r = await d.sale({ amountCents: 1000, ecrRef: 'r2' });
    expect(r.tipCents).toBe(200);
    expect(r.approvedCents).toBe(1200);
    expect(sim.states).toContain('tip');
    expect(decodeSettings(sim.received.at(-1)?.fields[4]).settings.tipPercents).toEqual([15, 18, 20]);
  });

  it('asks no tip when the counter already chose one', async () => {
    const r = await driver({ tipPercents: [15, 18, 20] }).sale({ amountCents: 1000, tipCents: 150, ecrRef: 'r3' });
    expect(r.tipCents).toBe(150);
    expect(sim.states).not.toContain('tip');
  });

  const reads = Object.entries(MOCK_AMOUNTS).filter(([, o]) => o.kind === 'read');
  it.each(reads)('amount %s gives its entry mode, card type and CVM', async (cents, o) => {
    if (o.kind !== 'read') throw new Error('unreachable');
    const r = await driver().sale({ amountCents: Number(cents), ecrRef: `m${cents}` });
    expect(r.entryMode).toBe(o.entryMode);
    expect(r.debit).toBe(o.debit);
    expect(r.cvm).toBe(o.cvm);
    if (o.brand) expect(r.brand).toBe(o.brand);
    if (o.cvm === 'signature') expect(r.signature).toMatch(/^iVBOR/);
    expect(r.emv === null).toBe(o.entryMode === 'K' || o.entryMode === 'S');
  });

  it('a terminal that sends the full card number: a device fault, its answer kept masked, nothing given out as a result (issue 20, point 1)', async () => {
    sim.faults.fullPan = true;
    const e = await failure(driver().sale({ amountCents: 714, ecrRef: 'pan' }));
    expect(sim.faults.fullPan).toBe(false);
    expect(e).toBeInstanceOf(TerminalFault);
    expect(e.message).toBe(DEVICE_MSG.FAULT);
    expect((e as TerminalFault).raw).toContain('************1111');
    expect(JSON.stringify(e)).not.toContain(SIM_CARDS.visa.pan);
    expect((e as TerminalFault).raw).not.toContain(SIM_CARDS.visa.pan);
  });

  it('5.01 is a connect error, 5.31 a time-out, 5.99 aborted by the customer', async () => {
    expect((await failure(driver().sale({ amountCents: 501, ecrRef: 'a' }))).message).toBe(DEVICE_MSG.CONNECT_ERROR);
    const t = await failure(driver().sale({ amountCents: 531, ecrRef: 'b' }));
    expect(t.code).toBe('timeout');
    expect((await failure(driver().sale({ amountCents: 599, ecrRef: 'c' }))).message).toBe(DEVICE_MSG.ABORTED);
  });

  const timeoutAmounts: [number, TimeoutKey][] = [
    [770, 'transaction_timeout'], [771, 'overall_timeout'], [772, 'card_entry_timeout'],
    [773, 'pin_entry_timeout'], [775, 'signature_input_timeout'], [776, 'signature_submit_timeout'],
  ];
  it.each(timeoutAmounts)('amount %s ends with the message of %s', async (cents, key) => {
    const e = await failure(driver().sale({ amountCents: cents, ecrRef: `t${cents}` }));
    expect(e.code).toBe('timeout');
    expect(e.timeoutKey).toBe(key);
    expect(e.message).toBe(TERMINAL_TIMEOUTS[key].message);
  });

  it('the customer scripts reach the other timeouts: card entry, tip, PIN, terms', async () => {
    sim.script.card = 'none';
    expect((await failure(driver().sale({ amountCents: 1000, ecrRef: 'x1' }))).message).toBe('Card Entry Timeout');
    sim.script.card = 'present';
    sim.script.tip = 'no-answer';
    expect((await failure(driver({ tipPercents: [10, 15, 20] }).sale({ amountCents: 1000, ecrRef: 'x2' }))).message).toBe('Tip/Cashback Timeout');
    sim.script.pin = 'none';
    expect((await failure(driver().sale({ amountCents: 716, ecrRef: 'x3' }))).message).toBe('Pin Entry Timeout');
    sim.script.terms = 'no-answer';
    expect((await failure(driver().deviceTerms('Agree?', false))).message).toBe('Timeout waiting for Customer');
  });

  it('a scripted customer can wait with the card until the test presents it', async () => {
    sim.script.card = 'on-cue';
    const d = driver();
    d.onState((s) => {
      if (s === 'card') setTimeout(() => sim.presentCard(), 20);
    });
    expect((await d.sale({ amountCents: 1000, ecrRef: 'cue' })).resultCode).toBe('000000');
    // Never presented: the card entry timeout, as for a customer without a card.
    expect((await failure(driver().sale({ amountCents: 1000, ecrRef: 'cue2' }))).message).toBe('Card Entry Timeout');
  });

  it('each timeout follows the terminal settings sent (a shorter card entry expires first)', async () => {
    sim.script.card = 'none';
    const short = { ...defaultTimeouts(), card_entry_timeout: 20, overall_timeout: 30 };
    // 20 s of card entry < 30 s overall: the terminal's own message wins.
    expect((await failure(driver({ timeouts: short }).sale({ amountCents: 1000, ecrRef: 'y' }))).message).toBe('Card Entry Timeout');
    const overallFirst = { ...defaultTimeouts(), card_entry_timeout: 120, overall_timeout: 30 };
    expect((await failure(driver({ timeouts: overallFirst }).sale({ amountCents: 1000, ecrRef: 'z' }))).message).toBe('Overall Request Timeout');
  });

  it('8.xx answers after xx seconds, not before, approved', async () => {
    // 8.99 waits 99 terminal seconds after the card. A probe started when the card screen
    // shows expires at 50 of them, before the simulator's own wait can (timers fire in the
    // order they expire, however loaded the machine): the sale must still be open then.
    const d = driver();
    let answered = false;
    let probe: Promise<boolean> | undefined;
    d.onState((s) => {
      if (s === 'card') probe ??= new Promise((r) => setTimeout(() => r(answered), 50 * SECOND_MS));
    });
    const r = await d.sale({ amountCents: 899, ecrRef: 'd' }).finally(() => (answered = true));
    expect(probe).toBeDefined();
    expect(await probe).toBe(false);
    expect(r.resultCode).toBe('000000');
  });

  it('void, tip adjust and batch totals', async () => {
    const d = driver();
    const a = await d.sale({ amountCents: 1000, ecrRef: 'v1' });
    const b = await d.sale({ amountCents: 2000, ecrRef: 'v2' });
    expect((await d.tipAdjust('v3', b.refNum, 300)).approvedCents).toBe(2300);
    await d.void('v4', a.refNum);
    expect(await d.batchTotals()).toEqual({ count: 1, totalCents: 2300 });
    expect((await failure(d.void('v5', 'nope'))).code).toBe('protocol');
  });

  it('refund and auth read a card', async () => {
    expect((await driver().refund({ amountCents: 500, ecrRef: 'f' })).approvedCents).toBe(500);
    expect((await driver().auth({ amountCents: 714, ecrRef: 'g' })).entryMode).toBe('C');
  });

  it('captures a signature and shows device terms (accepted with signature, declined)', async () => {
    expect(await driver().signature()).toMatch(/^iVBOR/);
    const yes = await driver().deviceTerms('I agree to pay', true);
    expect(yes.accepted).toBe(true);
    expect(yes.signature).toMatch(/^iVBOR/);
    sim.script.terms = 'decline';
    expect(await driver().deviceTerms('I agree to pay', true)).toEqual({ accepted: false, signature: null });
  });

  it('a NAKed request is sent again; three NAKs end the exchange', async () => {
    sim.faults.nakFrames = 2;
    expect((await driver().sale({ amountCents: 1000, ecrRef: 'n1' })).resultCode).toBe('000000');
    sim.faults.nakFrames = 3;
    expect((await failure(driver().sale({ amountCents: 1000, ecrRef: 'n2' }))).message).toBe(DEVICE_MSG.NAKED);
  });

  it('a response with a wrong LRC is NAKed and arrives again', async () => {
    sim.faults.badLrcFrames = 2;
    expect((await driver().sale({ amountCents: 1000, ecrRef: 'l' })).approvedCents).toBe(1000);
  });

  it('a garbled response is an error, not a guess', async () => {
    sim.faults.garbleResponse = true;
    expect((await failure(driver().sale({ amountCents: 1000, ecrRef: 'g' }))).message).toBe(DEVICE_MSG.GARBLED);
  });

  it('a terminal that disappears mid-transaction is reported', async () => {
    sim.faults.vanishAt = 'pin';
    expect((await failure(driver().sale({ amountCents: 716, ecrRef: 'gone' }))).message).toBe(DEVICE_MSG.DISCONNECTED);
  });

  it('cancel at the counter stops the terminal', async () => {
    sim.script.card = 'none';
    const d = driver();
    const off = d.onState((s) => {
      if (s === 'card') d.cancel();
    });
    expect((await failure(d.sale({ amountCents: 1000, ecrRef: 'c' }))).message).toBe(DEVICE_MSG.CANCELLED);
    off();
    sim.script.card = 'present';
    expect((await d.sale({ amountCents: 1000, ecrRef: 'c2' })).resultCode).toBe('000000');
  });

  it('cancel ends the sale when the terminal goes silent (power cut: it ACKed the request, then nothing)', async () => {
    // A terminal that ACKs every frame and never answers, with no FIN or RST on the socket.
    const silent = createServer((s) => s.on('data', (d) => {
      if (d.includes(0x03)) s.write(Buffer.from([0x06]));
    }));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const a = silent.address();
    try {
      // 20 ms a second: the overall timeout (300 s) would be 6 s, beyond this test's bound.
      const d = new TerminalDriver({
        connect: () => openTcpLink('127.0.0.1', typeof a === 'object' && a ? a.port : 1),
        settings: { timeouts: defaultTimeouts(), tipPercents: null },
        secondMs: 20,
      });
      const sale = failure(d.sale({ amountCents: 1000, ecrRef: 'silent' }));
      await vi.waitFor(() => expect(d.busy).toBe(true));
      await new Promise((r) => setTimeout(r, 50));
      d.cancel();
      const e = await sale;
      expect(e.code).toBe('cancelled');
      expect(e.message).toBe(DEVICE_MSG.CANCELLED);
      expect(d.busy).toBe(false);
    } finally {
      silent.close();
    }
  });

  it('cancel pressed while the driver is still connecting ends the operation and sends nothing', async () => {
    let release: (() => void) | undefined;
    const d = new TerminalDriver({
      connect: async () => {
        await new Promise<void>((r) => (release = r));
        return openTcpLink('127.0.0.1', port);
      },
      settings: { timeouts: defaultTimeouts(), tipPercents: null },
      secondMs: SECOND_MS,
    });
    const sale = failure(d.sale({ amountCents: 1000, ecrRef: 'early' }));
    await vi.waitFor(() => expect(release).toBeDefined());
    d.cancel();
    release?.();
    expect((await sale).message).toBe(DEVICE_MSG.CANCELLED);
    // Give a stray request time to arrive: the terminal must not have been asked.
    await new Promise((r) => setTimeout(r, 100));
    expect(sim.received.filter((f) => f.command === 'T00')).toHaveLength(0);
  });

  it('one driver runs one operation at a time, even while connecting', async () => {
    const d = driver();
    const first = d.sale({ amountCents: 1000, ecrRef: 'one' });
    expect((await failure(d.sale({ amountCents: 1000, ecrRef: 'two' }))).code).toBe('busy');
    expect((await first).resultCode).toBe('000000');
    expect(sim.received.filter((f) => f.command === 'T00')).toHaveLength(1);
  });

  it('a second operation while one runs is answered busy', async () => {
    sim.script.stepMs = 200;
    const first = driver().sale({ amountCents: 1000, ecrRef: 'b1' });
    await new Promise((r) => setTimeout(r, 50));
    expect((await failure(driver().sale({ amountCents: 1000, ecrRef: 'b2' }))).message).toBe(DEVICE_MSG.BUSY);
    expect((await first).resultCode).toBe('000000');
  });

  it('a terminal that is not there is unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const a = closed.address();
    await new Promise<void>((r) => closed.close(() => r()));
    port = typeof a === 'object' && a ? a.port : 1;
    expect((await failure(driver().initialize())).message).toBe(DEVICE_MSG.UNREACHABLE);
  });
});
