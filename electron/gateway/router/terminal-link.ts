/**
 * From a stored terminal to a driver: where it is (local_ip_address + port over TCP, over TLS
 * pinned to tls_fingerprint when tls is on, or Ringup's serial_path when communication_type is
 * "serial": devices/terminal-address.ts) and the settings that apply to
 * each operation (terminal_timeouts over the defaults, tip_percents).
 * A terminal with neither address is the sandbox's built-in mock terminal when its
 * communication_type is "mock" and the engine has one (mock-terminal.ts); otherwise it has no
 * driver, and only the engine's simulated customer answers its device terms.
 */
import { effectiveTimeouts, tipPercentsOf } from '../../../shared/payments/terminal-timeouts';
import { openLink } from '../../devices/device-link';
import { terminalRowAddress } from '../../devices/terminal-address';
import type { OperationSettings } from '../../devices/terminal-commands';
import { TerminalDriver } from '../../devices/terminal-driver';
import type { Row } from '../framework/resource';
import { MockTerminals } from './mock-terminal';

const parse = (v: unknown): unknown => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);

export function terminalSettings(t: Row): OperationSettings {
  return { timeouts: effectiveTimeouts(parse(t.terminal_timeouts)), tipPercents: tipPercentsOf(parse(t.tip_percents)) };
}

/**
 * The driver of a stored terminal, or null when it has none. `secondMs` (engine option for
 * tests) is a terminal second in ms; `mock` is the sandbox's mock terminals (absent in production).
 */
export function driverFor(t: Row, secondMs?: number, mock?: MockTerminals): TerminalDriver | null {
  const addr = terminalRowAddress(t);
  if (addr) return new TerminalDriver({ connect: () => openLink(addr), settings: terminalSettings(t), secondMs });
  if (mock && MockTerminals.plays(t)) return new TerminalDriver({ connect: () => mock.connect(t), settings: terminalSettings(t), secondMs });
  return null;
}
