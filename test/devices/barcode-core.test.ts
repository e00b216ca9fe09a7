/**
 * The core's side of serial barcode scanners (issue 23, point 5), on a real SQLite file and a
 * socat pseudo-terminal: a scanner registered is listened to at once and each code is pushed
 * as `barcode:scanned` (noise as `barcode:refused`, in words); the installer's test borrows
 * the port, so its read is the test's and no sale's; one scanner a path; a path that is no
 * serial port is refused in words; a removed scanner is no longer heard; after a restart of
 * the core (the same database) the scanner is listened to again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, expect, it, vi } from 'vitest';
import { DEVICE_BARCODE_MSG } from '../../electron/devices/barcode-lines';
import { DEVICE_PLACE_MSG, type DevicePlaces } from '../../electron/devices/device-places';
import { BarcodeSimulator } from '../../electron/devices/sim/barcode-simulator';
import { createBarcodeHandlers } from '../../electron/core/barcode/barcode-handlers';
import { CoreEvents } from '../../electron/core/platform/events';
import { openPosDatabase, type PosDatabase } from '../../electron/core/platform/pos-database';
import { BARCODE_SCANNER_MSG, type EventName } from '../../shared/ipc/contract';
import { socatPair, type PtyPair } from './helpers/socat-pair';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const places: DevicePlaces = { terminalPorts: [], allowPtys: true, listSerialPorts: async () => [] };

let db: PosDatabase;
let pty: PtyPair;
let sim: BarcodeSimulator;
let events: CoreEvents;
let heard: Array<{ event: EventName; payload: unknown }>;
beforeEach(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ringup-barcode-core-'));
  dirs.push(dir);
  db = openPosDatabase(dir);
  pty = await socatPair();
  sim = new BarcodeSimulator('crlf');
  await sim.attachSerial(pty.b);
  events = new CoreEvents();
  heard = [];
  events.subscribe((event, payload) => {
    if (event.startsWith('barcode:')) heard.push({ event, payload });
  });
});
afterEach(async () => {
  await sim.close();
  await pty.close();
  db.close();
});

const core = () => createBarcodeHandlers({ db, events, places, retryMs: 50, testWaitMs: 3000 });

/**
 * Runs the installer's test at pty.a, scanning until it answers: the test opens the port a
 * moment after it is asked (a code sent before then is not heard, as at a till), and nothing
 * outside says when.
 */
async function readByTest(h: ReturnType<typeof core>['handlers'], scan: () => void, started?: () => Promise<void>): Promise<unknown> {
  let answer: unknown;
  void h['barcode:test']({ path: pty.a, baud: 9600 }).then((r) => (answer = r));
  await started?.();
  await vi.waitFor(
    () => {
      if (answer !== undefined) return;
      scan();
      throw new Error('the test has not read a code yet');
    },
    { interval: 100, timeout: 5000 },
  );
  return answer;
}

it('listens to a scanner once saved, pushes its codes and its noise, and lends its port to the test', async () => {
  const { handlers: h, close } = core();
  try {
    const saved = await h['barcode:save']({ name: 'Front counter', path: pty.a, baud: 9600 });
    if (!saved.ok) throw new Error(saved.error.message);
    await vi.waitFor(async () => expect((await h['barcode:scanners']()).ok && (await h['barcode:scanners']())).toMatchObject({ value: [{ name: 'Front counter', state: 'listening', problem: null }] }));
    sim.scan('4006381333931');
    sim.sendRaw(Buffer.from([0x02, 0x41, 0x0d]));
    await vi.waitFor(() =>
      expect(heard).toEqual([
        { event: 'barcode:scanned', payload: { code: '4006381333931' } },
        { event: 'barcode:refused', payload: { message: DEVICE_BARCODE_MSG.noise } },
      ]),
    );

    // "Scan something now": the read is the test's; nothing reaches the windows.
    // Scanned only once the registered scanner has lent its port (state `testing`): before, the code would be a sale's.
    const lent = () => vi.waitFor(async () => expect(await h['barcode:scanners']()).toMatchObject({ value: [{ state: 'testing' }] }));
    expect(await readByTest(h, () => sim.scan('LAT-12'), lent)).toEqual({ ok: true, value: { code: 'LAT-12' } });
    expect(heard).toHaveLength(2);
    await vi.waitFor(async () => expect((await h['barcode:scanners']()).ok && (await h['barcode:scanners']())).toMatchObject({ value: [{ state: 'listening' }] }));
    sim.scan('SCN-0042');
    await vi.waitFor(() => expect(heard.at(-1)).toEqual({ event: 'barcode:scanned', payload: { code: 'SCN-0042' } }));

    // One scanner a path; a path that is no serial port, in words.
    const twice = await h['barcode:save']({ name: 'Back', path: pty.a, baud: 9600 });
    expect(twice).toMatchObject({ ok: false, error: { message: BARCODE_SCANNER_MSG.samePath('Front counter') } });
    const nul = await h['barcode:save']({ name: 'Back', path: '/dev/null', baud: 9600 });
    expect(nul).toMatchObject({ ok: false, error: { message: DEVICE_PLACE_MSG.notSerial('/dev/null') } });
  } finally {
    await close();
  }

  // The core starts again on the same database: the scanner is heard without being saved again.
  const again = core();
  try {
    const list = async () => (await again.handlers['barcode:scanners']()) as { ok: true; value: Array<{ id: string; state: string }> };
    await vi.waitFor(async () => expect((await list()).value).toMatchObject([{ state: 'listening' }]));
    sim.scan('96385074');
    await vi.waitFor(() => expect(heard.at(-1)).toEqual({ event: 'barcode:scanned', payload: { code: '96385074' } }));

    // Removed: its port is let go, and a code scanned is heard no more.
    const id = (await list()).value[0]!.id;
    expect(await again.handlers['barcode:remove']({ id })).toMatchObject({ ok: true, value: { name: 'Front counter' } });
    expect((await list()).value).toEqual([]);
    const count = heard.length;
    // The port is free: a test opens it and reads the code.
    expect(await readByTest(again.handlers, () => sim.scan('012345678905'))).toEqual({ ok: true, value: { code: '012345678905' } });
    expect(heard).toHaveLength(count);
  } finally {
    await again.close();
  }
});

it('the test says in words when nothing is scanned and when the path is no serial port', async () => {
  const { handlers: h, close } = createBarcodeHandlers({ db, events, places, retryMs: 50, testWaitMs: 200 });
  try {
    expect(await h['barcode:test']({ path: pty.a, baud: 9600 })).toMatchObject({ ok: false, error: { message: DEVICE_BARCODE_MSG.nothing } });
    expect(await h['barcode:test']({ path: '/dev/nothing-here', baud: 9600 })).toMatchObject({ ok: false, error: { message: DEVICE_PLACE_MSG.missing('/dev/nothing-here') } });
  } finally {
    await close();
  }
});
