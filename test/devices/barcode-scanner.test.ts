/**
 * Serial barcode scanners (issue 23, point 5): the line rule on its own (bytes in, reads out),
 * then the real driver against the simulator over a socat pseudo-terminal — CR and CR LF
 * suffixes, a code arriving in two reads, noise and a run-on line refused in words, the
 * installer's test read — and a scanner unplugged (socat ended: the pty goes) and plugged back
 * at the same path (a link, as /dev/serial/by-id/… is), read again without a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BarcodeLineReader, DEVICE_BARCODE_MSG, MAX_BARCODE_LINE, type BarcodeRead } from '../../electron/devices/barcode-lines';
import { BarcodeScannerDriver } from '../../electron/devices/barcode-scanner';
import { openSerialLink } from '../../electron/devices/device-link';
import { DeviceError } from '../../electron/devices/device-messages';
import { KeptBarcodeScanner, type KeptScannerState } from '../../electron/devices/kept-barcode-scanner';
import { BarcodeSimulator } from '../../electron/devices/sim/barcode-simulator';
import { rejectionOf } from '../helpers/rejection';
import { socatPair, type PtyPair } from './helpers/socat-pair';

const bytes = (s: string) => Buffer.from(s, 'latin1');
const code = (c: string): BarcodeRead => ({ kind: 'code', code: c });

describe('the line rule', () => {
  it('ends a code at CR, CR LF or LF, joins a code cut across reads, and skips empty lines', () => {
    const r = new BarcodeLineReader();
    expect(r.push(bytes('4006381'))).toEqual([]);
    expect(r.pending).toBe(7);
    expect(r.push(bytes('333931\r'))).toEqual([code('4006381333931')]);
    // CR LF split between two reads: the LF alone is an empty line, not a read.
    expect(r.push(bytes('LAT-12\r'))).toEqual([code('LAT-12')]);
    expect(r.push(bytes('\nSCN-0042\n\r\n  W 1 \r'))).toEqual([code('SCN-0042'), code('W 1')]);
    expect(r.pending).toBe(0);
  });

  it('refuses a line with control bytes or bytes a wrong baud rate makes, and reads the next good one', () => {
    const r = new BarcodeLineReader();
    expect(r.push(Buffer.concat([Buffer.from([0x02]), bytes('12345678'), Buffer.from([0x03]), bytes('\r')]))).toEqual([{ kind: 'refused', message: DEVICE_BARCODE_MSG.noise }]);
    expect(r.push(Buffer.from([0xf8, 0x80, 0xfe, 0x0d]))).toEqual([{ kind: 'refused', message: DEVICE_BARCODE_MSG.noise }]);
    expect(r.push(bytes('CODE\tX\r'))).toEqual([{ kind: 'refused', message: DEVICE_BARCODE_MSG.noise }]);
    expect(r.push(bytes('96385074\r'))).toEqual([code('96385074')]);
  });

  it('drops a run-on line whole, once, up to its end, then reads on', () => {
    const r = new BarcodeLineReader();
    expect(r.push(bytes('9'.repeat(MAX_BARCODE_LINE)))).toEqual([]);
    expect(r.push(bytes('99'))).toEqual([{ kind: 'refused', message: DEVICE_BARCODE_MSG.tooLong }]);
    expect(r.push(bytes('9'.repeat(200)))).toEqual([]);
    expect(r.push(bytes('\rABC-1\r'))).toEqual([code('ABC-1')]);
    // Exactly the limit is still a code.
    expect(r.push(bytes(`${'7'.repeat(MAX_BARCODE_LINE)}\r\n`))).toEqual([code('7'.repeat(MAX_BARCODE_LINE))]);
  });
});

describe('driver and simulator over a socat pseudo-terminal', () => {
  let pty: PtyPair | undefined;
  let sim: BarcodeSimulator | undefined;
  let driver: BarcodeScannerDriver | undefined;
  afterEach(async () => {
    await driver?.close();
    await sim?.close();
    await pty?.close();
    driver = sim = pty = undefined;
  });

  async function rig(suffix: 'cr' | 'crlf') {
    pty = await socatPair();
    sim = new BarcodeSimulator(suffix);
    await sim.attachSerial(pty.b);
    driver = new BarcodeScannerDriver(await openSerialLink(pty.a, 9600));
    const reads: BarcodeRead[] = [];
    driver.onRead((r) => reads.push(r));
    return { sim, driver, reads };
  }

  it('reads codes sent with CR, then with CR LF', async () => {
    const { sim, reads } = await rig('cr');
    sim.scan('4006381333931');
    sim.suffix = 'crlf';
    sim.scan('LAT-12');
    sim.scan('SCN-0042');
    await vi.waitFor(() => expect(reads).toEqual([code('4006381333931'), code('LAT-12'), code('SCN-0042')]));
  });

  it('joins a code written in two parts, refuses noise and a run-on line in words, and reads on', async () => {
    const { sim, driver, reads } = await rig('crlf');
    sim.sendRaw(bytes('40063'));
    // The first part is read before the second is written: two reads on the host's side.
    await vi.waitFor(() => expect(driver.pendingBytes).toBe(5));
    sim.sendRaw(bytes('81333931\r\n'));
    await vi.waitFor(() => expect(reads).toEqual([code('4006381333931')]));
    sim.sendRaw(Buffer.from([0x1b, 0x5b, 0x41, 0x0d]));
    sim.sendRaw(bytes(`${'5'.repeat(MAX_BARCODE_LINE + 10)}\r\n`));
    sim.scan('96385074');
    await vi.waitFor(() =>
      expect(reads.slice(1)).toEqual([
        { kind: 'refused', message: DEVICE_BARCODE_MSG.noise },
        { kind: 'refused', message: DEVICE_BARCODE_MSG.tooLong },
        code('96385074'),
      ]),
    );
  });

  it("the installer's test read: the code; no end of line and nothing scanned said in words", async () => {
    const { sim, driver } = await rig('cr');
    const next = driver.nextRead(5000);
    sim.scan('012345678905');
    expect(await next).toBe('012345678905');
    sim.sendRaw(bytes('012345678905'));
    await vi.waitFor(async () => expect((await rejectionOf(driver.nextRead(200), DeviceError)).message).toBe(DEVICE_BARCODE_MSG.noLineEnd));
    // Its end comes late: the code is read whole.
    const late = driver.nextRead(5000);
    sim.sendRaw(bytes('\r'));
    expect(await late).toBe('012345678905');
    const e = await rejectionOf(driver.nextRead(200), DeviceError);
    expect(e.message).toBe(DEVICE_BARCODE_MSG.nothing);
    const bad = driver.nextRead(5000);
    sim.sendRaw(Buffer.from([0xff, 0xfe, 0x0d]));
    expect((await rejectionOf(bad, DeviceError)).message).toBe(DEVICE_BARCODE_MSG.noise);
  });
});

describe('a kept scanner unplugged and plugged back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ringup-barcode-'));

  it('waits while unplugged, opens again at the same path, and reads the next code', async () => {
    const at = join(dir, 'usb-scanner');
    let pty = await socatPair({ linkA: at });
    let sim = new BarcodeSimulator('cr');
    await sim.attachSerial(pty.b);
    const reads: BarcodeRead[] = [];
    const states: KeptScannerState[] = [];
    const kept = new KeptBarcodeScanner({ path: at, baud: 9600, retryMs: 50, onRead: (r) => reads.push(r), onState: (s) => states.push(s) });
    try {
      await kept.start();
      expect(kept.state).toBe('open');
      sim.scan('4006381333931');
      await vi.waitFor(() => expect(reads).toEqual([code('4006381333931')]));

      // Unplugged: socat ends, the pty and its link go; the port closes and the scanner waits.
      await sim.close();
      await pty.close();
      await vi.waitFor(() => expect(kept.state).toBe('waiting'));

      // Plugged back: a new pty at the same link; the kept scanner opens it on its own.
      pty = await socatPair({ linkA: at });
      sim = new BarcodeSimulator('crlf');
      await sim.attachSerial(pty.b);
      await vi.waitFor(() => expect(kept.state).toBe('open'), { timeout: 5000 });
      sim.scan('LAT-12');
      await vi.waitFor(() => expect(reads).toEqual([code('4006381333931'), code('LAT-12')]));
      expect(states).toEqual(['open', 'waiting', 'open']);

      // Lent to a test and given back: closed meanwhile, open again after.
      await kept.pause();
      expect(kept.state).toBe('paused');
      kept.resume();
      await vi.waitFor(() => expect(kept.state).toBe('open'));
    } finally {
      await kept.close();
      await sim.close();
      await pty.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
