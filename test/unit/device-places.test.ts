/**
 * Devices only where they belong (issue 20, point 6), through the core's handlers behind the
 * validating dispatcher, as the Devices screen calls them: a terminal is an address on the
 * shop's own network (private or loopback IPv4) on the terminal's port (10009, or ports the
 * machine's owner allowed at start); a serial path is one of the system's serial ports
 * (pseudo-terminals only when allowed at start); terms text has no control characters.
 * Each refusal is a sentence. Real TCP (the terminal simulator on port 0), a real socat
 * pseudo-terminal, real files and folders.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/app-core';
import { DEVICE_MSG } from '../../electron/devices/device-messages';
import { DEVICE_PLACE_MSG } from '../../electron/devices/device-places';
import { ScannerSimulator } from '../../electron/devices/sim/scanner-simulator';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { createDispatcher, type Dispatch } from '../../electron/ipc/dispatcher';
import type { HandlerResults, PosUser } from '../../shared/ipc/contract';
import { TERMINAL_ADDRESS_MSG, TERMS_TEXT_MSG, termsTextRefusal } from '../../shared/ipc/devices';
import { defaultTimeouts } from '../../shared/payments/terminal-timeouts';
import type { Result } from '../../shared/result';
import { socatPair, type PtyPair } from '../devices/helpers/socat-pair';

const ORIGIN = 'http://127.0.0.1:5999';
const dirs: string[] = [];
let sim: TerminalSimulator;
let simPort: number;
let pty: PtyPair;
let scanner: ScannerSimulator;
/** A regular file and a folder under /dev (tmpfs /dev/shm), which the /dev/ prefix alone lets through. */
let devFile: string;
let devFolder: string;

interface Started {
  core: Core;
  call<C extends keyof HandlerResults>(channel: C, arg?: unknown): Promise<Result<HandlerResults[C]>>;
}

async function start(extra: Partial<Parameters<typeof startCore>[0]> = {}): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'ringup-places-'));
  dirs.push(dir);
  const core = await startCore({ dataDir: dir, shell: 'node-host', healthIntervalMs: 0, deviceStatusIntervalMs: 0, ...extra });
  const dispatch: Dispatch = createDispatcher(core.handlers, { allowedOrigins: [ORIGIN] });
  const call = async <C extends keyof HandlerResults>(channel: C, arg?: unknown) => (await dispatch(channel, { url: `${ORIGIN}/`, isMainFrame: true }, arg)) as Result<HandlerResults[C]>;
  const users = (await call('auth:users')) as Result<{ users: PosUser[] }>;
  if (!users.ok) throw new Error(users.error.message);
  const jordan = users.value.users.find((u) => u.name === 'Jordan')!;
  expect((await call('auth:sign-in', { userId: jordan.id, pin: '2468' })).ok).toBe(true);
  return { core, call };
}

function refusal(r: Result<unknown>): string {
  if (r.ok) return 'accepted';
  return r.error.fields ? Object.values(r.error.fields).flat().join(' ') : r.error.message;
}

const tcp = (host: string, port: number) => ({ kind: 'tcp', host, port });

beforeAll(async () => {
  sim = new TerminalSimulator();
  sim.script.stepMs = 5;
  simPort = await sim.listenTcp(0);
  pty = await socatPair();
  scanner = new ScannerSimulator();
  await scanner.attachSerial(pty.b);
  devFolder = mkdtempSync('/dev/shm/ringup-places-');
  dirs.push(devFolder);
  devFile = join(devFolder, 'ttyFAKE0');
  writeFileSync(devFile, 'not a port\n');
});
afterAll(async () => {
  await sim?.close();
  await scanner?.close();
  await pty?.close();
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('with nothing allowed at start (a shop install)', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start({ devicePlaces: { terminalPorts: [], allowPtys: false, listSerialPorts: () => Promise.resolve([]) } });
  });
  afterAll(async () => {
    await s?.core.close();
  });

  it('a terminal address is on the shop network or this computer, never a public, link-local or "any" address', async () => {
    for (const host of ['8.8.8.8', '169.254.169.254', '0.0.0.0', '100.64.0.1', '172.32.0.1', '224.0.0.1', '255.255.255.255']) {
      expect(refusal(await s.call('devices:terminal-test', { address: tcp(host, 10009) })), host).toBe(TERMINAL_ADDRESS_MSG);
    }
    const demo = (await s.call('devices:installer-data')) as Result<{ terminals: Array<Record<string, unknown>> }>;
    if (!demo.ok) throw new Error(demo.error.message);
    const { id, title, serialNumber, applicationId, manufacturerId } = demo.value.terminals[0]! as Record<string, string>;
    const save = { id, title, serialNumber, applicationId, manufacturerId, timeouts: defaultTimeouts(), tipPercents: null };
    expect(refusal(await s.call('devices:terminal-save', { ...save, address: tcp('8.8.8.8', 10009) }))).toBe(TERMINAL_ADDRESS_MSG);
    // The terminal's own port on a private address is let through (nothing answers there: unreachable, in words).
    expect(await s.call('devices:terminal-test', { address: tcp('127.0.0.1', 10009) })).toMatchObject({ ok: false, error: { message: DEVICE_MSG.UNREACHABLE } });
    // Another local service's port is refused before anything is sent to it, saved or tested.
    for (const port of [simPort, 22, 5432, 1]) {
      expect(refusal(await s.call('devices:terminal-test', { address: tcp('127.0.0.1', port) })), String(port)).toBe(DEVICE_PLACE_MSG.terminalPort([]));
    }
    expect(refusal(await s.call('devices:terminal-save', { ...save, address: tcp('192.168.1.50', 6379) }))).toBe(DEVICE_PLACE_MSG.terminalPort([]));
    expect(sim.received.length).toBe(0);
  });

  it('a serial path is a serial port of this computer: no file, folder, escape from /dev or pseudo-terminal', async () => {
    const cases: Array<[string, string]> = [
      ['/dev/../etc/passwd', DEVICE_PLACE_MSG.notSerial('/dev/../etc/passwd')],
      [devFile, DEVICE_PLACE_MSG.notSerial(devFile)],
      [devFolder, DEVICE_PLACE_MSG.notSerial(devFolder)],
      ['/dev/null', DEVICE_PLACE_MSG.notSerial('/dev/null')],
      ['/dev/ttyUSB77', DEVICE_PLACE_MSG.missing('/dev/ttyUSB77')],
      [pty.a, DEVICE_PLACE_MSG.pseudoTerminal(pty.a)],
    ];
    for (const [path, msg] of cases) {
      expect(refusal(await s.call('devices:scanner-test', { path })), path).toBe(msg);
      expect(refusal(await s.call('devices:scanner-save', { title: 'Desk', serialNumber: 'SCN1', modelId: 1, path })), path).toBe(msg);
      expect(refusal(await s.call('devices:terminal-test', { address: { kind: 'serial', path } })), path).toBe(msg);
    }
    expect(refusal(await s.call('devices:scanner-test', { path: '/etc/passwd' }))).toMatch(/starts with \/dev\//);
  });

  it('terms text has no control characters other than new lines', async () => {
    const demo = (await s.call('devices:installer-data')) as Result<{ terminals: Array<{ id: string }> }>;
    if (!demo.ok) throw new Error(demo.error.message);
    const terminalId = demo.value.terminals[0]!.id;
    for (const text of ['I agree\r\nQUIT', 'Terms\x1b[2J', 'Tab\there', 'Bell\x07', 'NUL\x00', 'C1 \u009b31m', 'DEL\x7f']) {
      expect(await s.call('devices:terminal-terms', { terminalId, text, requireSignature: false }), JSON.stringify(text)).toMatchObject({ ok: false, error: { message: TERMS_TEXT_MSG } });
    }
    expect(termsTextRefusal('Line one\nLine two — café, 10 %')).toBeNull();
  });
});

describe('with what the machine owner allowed at start', () => {
  it('a listed serial port and an allowed pseudo-terminal are used; an allowed terminal port is used', async () => {
    // The system's list names the pty (as it would a USB adapter): admitted without the pty allowance.
    const listed = await start({ devicePlaces: { terminalPorts: [[simPort, simPort]], allowPtys: false, listSerialPorts: () => Promise.resolve([{ path: pty.a, maker: null }]) } });
    try {
      expect((await listed.call('devices:scanner-test', { path: pty.a })).ok).toBe(true);
      expect(await listed.call('devices:terminal-test', { address: tcp('127.0.0.1', simPort) })).toMatchObject({ ok: true, value: { serialNumber: 'SIM0001' } });
      expect(refusal(await listed.call('devices:terminal-test', { address: tcp('127.0.0.1', simPort + 1) }))).toBe(DEVICE_PLACE_MSG.terminalPort([[simPort, simPort]]));
    } finally {
      await listed.core.close();
    }
    const ptys = await start({ devicePlaces: { terminalPorts: [], allowPtys: true, listSerialPorts: () => Promise.resolve([]) } });
    try {
      expect((await ptys.call('devices:scanner-test', { path: pty.a })).ok).toBe(true);
      expect(refusal(await ptys.call('devices:scanner-test', { path: devFile }))).toBe(DEVICE_PLACE_MSG.notSerial(devFile));
    } finally {
      await ptys.core.close();
    }
  });
});
