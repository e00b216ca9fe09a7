/**
 * From a stored terminal to a driver: where it is (local_ip_address + port over TCP, or
 * Ringup's serial_path when communication_type is "serial") and the settings that apply to
 * each operation (terminal_timeouts over the defaults, tip_percents).
 * A terminal with neither is the engine's built-in simulated customer (device terms only).
 */
import { effectiveTimeouts, tipPercentsOf } from '../../../shared/payments/terminal-timeouts';
import { openLink, type DeviceAddress } from '../../devices/device-link';
import type { OperationSettings } from '../../devices/terminal-commands';
import { TerminalDriver } from '../../devices/terminal-driver';
import type { Row } from '../framework/resource';

const parse = (v: unknown): unknown => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);

export function terminalAddress(t: Row): DeviceAddress | null {
  if (t.communication_type === 'serial' && typeof t.serial_path === 'string' && t.serial_path) return { kind: 'serial', path: t.serial_path };
  if (typeof t.local_ip_address === 'string' && t.local_ip_address) return { kind: 'tcp', host: t.local_ip_address, port: typeof t.port === 'number' ? t.port : 10009 };
  return null;
}

export function terminalSettings(t: Row): OperationSettings {
  return { timeouts: effectiveTimeouts(parse(t.terminal_timeouts)), tipPercents: tipPercentsOf(parse(t.tip_percents)) };
}

/** Engine option for tests: a second in ms (the terminal's timeouts are seconds). */
export function driverFor(t: Row, secondMs?: number): TerminalDriver | null {
  const addr = terminalAddress(t);
  if (!addr) return null;
  return new TerminalDriver({ connect: () => openLink(addr), settings: terminalSettings(t), secondMs });
}
