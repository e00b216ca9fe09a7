/**
 * Where a device may be (issue 20, point 6): the core asks here before it saves, tests or
 * opens a terminal or scanner address an installer typed, so the installer's screens cannot
 * be used to send bytes to another local service or to open a file as a "serial port".
 *
 * Decisions (the README's Devices section says the same):
 * - Terminal ports. A POSLink-family terminal listens on TCP 10009 (GATEWAY-FACTS, the
 *   terminal's default). Any other port must be allowed by whoever starts Ringup, not by the
 *   installer on the Devices screen: `RINGUP_TERMINAL_PORTS=10010,20000-20100` (ports and
 *   ranges). Tests and simulators listen on port 0 (any free port), so they start the core
 *   with the unprivileged range allowed (1024-65535); a shop install needs nothing.
 * - The address itself (private or loopback IPv4) is checked by the shared schema
 *   (shared/ipc/devices.ts), so the screen says it as the field is typed.
 * - Serial paths. The path, with every link followed, must be a character device that the
 *   system lists as a serial port (`SerialPort.list()`; a USB adapter's /dev/serial/by-id/…
 *   link counts as the port it points at). A pseudo-terminal (/dev/pts/N: a serial-over-network
 *   bridge such as socat or ser2net, or a device simulator) is no port the system lists; it is
 *   admitted only when whoever starts Ringup sets `RINGUP_SERIAL_PTYS=1`. A regular file, a
 *   folder, /dev/null, or a path leaving /dev through `..` is refused.
 * - The check scanner has no network form (serial MICR readers only), so it has no ports.
 * Simplification: a system whose list cannot be read (no udevadm, as in some containers) lists
 * no ports; only allowed pseudo-terminals then pass.
 */
import { realpathSync, statSync } from 'node:fs';
import { SerialPort } from 'serialport';
import type { SerialPortChoice } from '../../shared/ipc/devices';

/** The POSLink family's TCP port (GATEWAY-FACTS: "default TCP port 10009"). */
export const TERMINAL_PORT = 10009;
export const TERMINAL_PORTS_ENV = 'RINGUP_TERMINAL_PORTS';
export const SERIAL_PTYS_ENV = 'RINGUP_SERIAL_PTYS';

export type PortRange = readonly [number, number];

export interface DevicePlaces {
  /** Ports a terminal may use besides 10009 (inclusive ranges), as allowed at start. */
  terminalPorts: readonly PortRange[];
  /** Pseudo-terminals count as serial ports (RINGUP_SERIAL_PTYS=1). */
  allowPtys: boolean;
  /** The system's serial ports (SerialPort.list() in the app; tests pass their own): checked against, and offered on the Devices screen. */
  listSerialPorts: () => Promise<SerialPortChoice[]>;
}

const rangeText = ([a, b]: PortRange) => (a === b ? String(a) : `${a}-${b}`);

export const DEVICE_PLACE_MSG = {
  terminalPort: (extra: readonly PortRange[]) =>
    extra.length
      ? `A payment terminal uses port ${TERMINAL_PORT}, or a port allowed on this computer (${extra.map(rangeText).join(', ')}).`
      : `A payment terminal uses port ${TERMINAL_PORT}. Set the terminal to it, or have whoever starts Ringup allow another port (${TERMINAL_PORTS_ENV}).`,
  missing: (path: string) => `There is nothing at ${path}. Plug the device in, or pick the serial port it is on.`,
  notSerial: (path: string) => `${path} is not a serial port on this computer. Pick the serial port the device is on, for example /dev/ttyUSB0.`,
  pseudoTerminal: (path: string) => `${path} is a pseudo-terminal, not a serial port. A serial bridge on a pseudo-terminal needs whoever starts Ringup to allow it (${SERIAL_PTYS_ENV}=1).`,
  badPortsSetting: `${TERMINAL_PORTS_ENV} lists ports or ranges such as 10010,20000-20100, each from 1 to 65535.`,
} as const;

/** Reads RINGUP_TERMINAL_PORTS ("10010,20000-20100"); throws the sentence on a mistake. */
export function parsePortRanges(text: string | undefined): PortRange[] {
  if (!text?.trim()) return [];
  return text.split(',').map((part) => {
    const m = /^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$/.exec(part);
    const a = m ? Number(m[1]) : NaN;
    const b = m?.[2] !== undefined ? Number(m[2]) : a;
    if (!(a >= 1 && b <= 65535 && a <= b)) throw new Error(DEVICE_PLACE_MSG.badPortsSetting);
    return [a, b] as const;
  });
}

export async function systemSerialPorts(): Promise<SerialPortChoice[]> {
  try {
    return (await SerialPort.list()).map((p) => ({ path: p.path, maker: p.manufacturer?.trim() || null }));
  } catch {
    return [];
  }
}

export function devicePlacesFromEnv(env: NodeJS.ProcessEnv): DevicePlaces {
  return { terminalPorts: parsePortRanges(env[TERMINAL_PORTS_ENV]), allowPtys: env[SERIAL_PTYS_ENV] === '1', listSerialPorts: systemSerialPorts };
}

export function terminalPortRefusal(port: number, places: DevicePlaces): string | null {
  if (port === TERMINAL_PORT || places.terminalPorts.some(([a, b]) => port >= a && port <= b)) return null;
  return DEVICE_PLACE_MSG.terminalPort(places.terminalPorts);
}

const realOrNull = (p: string): string | null => {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
};

export async function serialPathRefusal(path: string, places: DevicePlaces): Promise<string | null> {
  const real = realOrNull(path);
  if (real === null) return DEVICE_PLACE_MSG.missing(path);
  if (!statSync(real).isCharacterDevice()) return DEVICE_PLACE_MSG.notSerial(path);
  const listed = (await places.listSerialPorts()).map((p) => realOrNull(p.path));
  if (listed.includes(real)) return null;
  if (/^\/dev\/pts\/\d+$/.test(real)) return places.allowPtys ? null : DEVICE_PLACE_MSG.pseudoTerminal(path);
  return DEVICE_PLACE_MSG.notSerial(path);
}

/** Where a device is (the same shape as device-link's DeviceAddress). */
export async function deviceAddressRefusal(addr: { kind: 'tcp'; port: number } | { kind: 'serial'; path: string }, places: DevicePlaces): Promise<string | null> {
  return addr.kind === 'tcp' ? terminalPortRefusal(addr.port, places) : serialPathRefusal(addr.path, places);
}
