/**
 * The same drivers over a serial line: socat pseudo-terminals, the terminal simulator on one
 * end and the driver on the other; the check scanner simulator likewise.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultTimeouts } from '../../shared/payments/terminal-timeouts';
import { CheckScannerDriver } from '../../electron/devices/check-scanner';
import { openSerialLink } from '../../electron/devices/device-link';
import { DEVICE_MSG, DeviceError } from '../../electron/devices/device-messages';
import { ScannerSimulator } from '../../electron/devices/sim/scanner-simulator';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { TerminalDriver } from '../../electron/devices/terminal-driver';
import { socatPair, type PtyPair } from './helpers/socat-pair';

let pty: PtyPair;
beforeEach(async () => {
  pty = await socatPair();
});
afterEach(async () => {
  await pty.close();
});

async function failure(p: Promise<unknown>): Promise<DeviceError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(DeviceError);
    return e as DeviceError;
  }
  throw new Error('expected a failure');
}

describe('EMV terminal over a serial line', () => {
  it('runs a sale with a signature, survives a NAK and a wrong LRC, and reports an unplugged terminal', async () => {
    const sim = new TerminalSimulator({ secondMs: 4 });
    sim.script.stepMs = 5;
    await sim.attachSerial(pty.b);
    const d = new TerminalDriver({ connect: () => openSerialLink(pty.a), settings: { timeouts: defaultTimeouts(), tipPercents: [15, 18, 20] }, secondMs: 4 });
    sim.script.tip = 2;
    const r = await d.sale({ amountCents: 715, ecrRef: 's1' });
    expect(r).toMatchObject({ entryMode: 'C', cvm: 'signature', tipCents: 129, approvedCents: 844 });
    expect(r.signature).toMatch(/^iVBOR/);
    sim.faults = { nakFrames: 1, badLrcFrames: 1 };
    expect((await d.sale({ amountCents: 1000, tipCents: 0, ecrRef: 's2' })).approvedCents).toBe(1000);
    sim.faults = { vanishAt: 'card' };
    // A serial line gives no hang-up signal: the terminal going silent mid-transaction ends
    // with the overall timeout (the driver's bound), not a hang.
    const e = await failure(d.sale({ amountCents: 1000, ecrRef: 's3' }));
    expect(e.message).toBe('Overall Request Timeout');
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
