/**
 * The same drivers over a serial line: socat pseudo-terminals, the terminal simulator on one
 * end and the driver on the other; the check scanner simulator likewise.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultTimeouts } from '../../shared/payments/terminal-timeouts';
import { CheckScannerDriver } from '../../electron/devices/check-scanner';
import { openSerialLink } from '../../electron/devices/device-link';
import { DEVICE_MSG, DeviceError } from '../../electron/devices/device-messages';
import { ScannerSimulator } from '../../electron/devices/sim/scanner-simulator';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { TerminalDriver } from '../../electron/devices/terminal-driver';
import { socatPair, type PtyPair } from './helpers/socat-pair';
import { rejectionOf } from '../helpers/rejection';

let pty: PtyPair;
beforeEach(async () => {
  pty = await socatPair();
});
afterEach(async () => {
  await pty.close();
});

const failure = (p: Promise<unknown>) => rejectionOf(p, DeviceError);

describe('EMV terminal over a serial line', () => {
  // 25 ms a terminal second: the timeouts stay well above a loaded machine's scheduling delays
  // (at 4 ms, overall_timeout was 1.2 s and repeated serial sales timed out under load).
  const SECOND_MS = 25;
  let sim: TerminalSimulator;
  beforeEach(async () => {
    sim = new TerminalSimulator({ secondMs: SECOND_MS });
    sim.script.stepMs = 5;
    await sim.attachSerial(pty.b);
  });
  afterEach(async () => {
    await sim.close();
  });
  const driver = (timeouts = defaultTimeouts()) =>
    new TerminalDriver({ connect: () => openSerialLink(pty.a), settings: { timeouts, tipPercents: [15, 18, 20] }, secondMs: SECOND_MS });

  it('runs a sale with a signature and survives a NAK and a wrong LRC', async () => {
    const d = driver();
    sim.script.tip = 2;
    const r = await d.sale({ amountCents: 715, ecrRef: 's1' });
    expect(r).toMatchObject({ entryMode: 'C', cvm: 'signature', tipCents: 129, approvedCents: 844 });
    expect(r.signature).toMatch(/^iVBOR/);
    sim.faults = { nakFrames: 1, badLrcFrames: 1 };
    expect((await d.sale({ amountCents: 1000, tipCents: 0, ecrRef: 's2' })).approvedCents).toBe(1000);
  });

  it('an unplugged terminal (a serial line gives no hang-up) ends with the overall timeout, not a hang', async () => {
    sim.faults = { vanishAt: 'card' };
    const e = await failure(driver({ ...defaultTimeouts(), overall_timeout: 30 }).sale({ amountCents: 1000, ecrRef: 's3' }));
    expect(e.message).toBe('Overall Request Timeout');
  });

  it('Cancel ends a sale on an unplugged terminal at once, without waiting for the overall timeout', async () => {
    // overall_timeout 300 s is 7.5 s here, beyond this test's bound: only the cancel can end it.
    sim.faults = { vanishAt: 'card' };
    const d = driver();
    const sale = failure(d.sale({ amountCents: 1000, ecrRef: 's4' }));
    await vi.waitFor(() => expect(sim.states).toContain('card'));
    d.cancel();
    const e = await sale;
    expect(e.code).toBe('cancelled');
    expect(e.message).toBe(DEVICE_MSG.CANCELLED);
  });
});

describe('check scanner over a serial line', () => {
  let sim: ScannerSimulator;
  let scanner: CheckScannerDriver;
  beforeEach(async () => {
    sim = new ScannerSimulator();
    await sim.attachSerial(pty.b);
    scanner = new CheckScannerDriver(await openSerialLink(pty.a), 1000);
  });
  afterEach(async () => {
    await scanner.close();
    await sim.close();
  });

  it('identifies, configures its symbols and reads a check', async () => {
    expect(await scanner.identify()).toEqual({ model: 'MICR-100', serialNumber: 'SCN0001' });
    await scanner.configure({ transit: 'T', onUs: 'O' });
    expect(await scanner.scan(1000)).toEqual({ routing: '072000326', account: '12345678', checkNumber: '1001', line: 'T072000326T 12345678O 1001' });
  });

  it('reads a business check with the check number before the routing', async () => {
    sim.micr = 'U004321U T072000326T 987654321U';
    expect(await scanner.scan(1000)).toMatchObject({ routing: '072000326', account: '987654321', checkNumber: '4321' });
  });

  it('rejects unreadable characters, a bad routing checksum, and no check', async () => {
    sim.micr = 'T0720?0326T 12345678U 1001';
    expect((await failure(scanner.scan(1000))).message).toBe(DEVICE_MSG.MICR_UNREADABLE);
    sim.micr = 'T072000327T 12345678U 1001';
    expect((await failure(scanner.scan(1000))).message).toBe(DEVICE_MSG.MICR_ROUTING);
    sim.micr = 'T072000326T 12!45678U 1001';
    expect((await failure(scanner.scan(1000))).message).toBe(DEVICE_MSG.MICR_UNREADABLE);
    sim.micr = null;
    expect((await failure(scanner.scan(1000))).message).toBe(DEVICE_MSG.SCANNER_NO_CHECK);
  });
});
