/**
 * Terminal and scanner rows as the gateway lists them (`/v2/terminals`, `/v2/scanners`, JSON
 * columns possibly still strings), turned into what the counter and the installer's screens
 * need: the address to reach a device at, its timeouts and tip percents, the pinned TLS
 * certificate, and the records the installer edits.
 */
import type { ScannerRecord, TerminalRecord } from '../../../shared/ipc/contract';
import { effectiveTimeouts, tipPercentsOf } from '../../../shared/payments/terminal-timeouts';
import type { DeviceAddress } from '../../devices/device-link';
import { terminalRowAddress } from '../../devices/terminal-address';
import type { KnownTerminal } from '../queue/offline-terminal-sale';

export type Row = Record<string, unknown>;

export function parseJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return null;
  }
}

export const addressOf = terminalRowAddress;

/** The location filter of the counter's device lists (none: the gateway's default location). */
export const locQuery = (locationId: string | undefined) => (locationId ? { location_id: locationId } : {});

/** The fingerprint a terminal row pins (for the device-fault record), or "none". */
export function pinnedOf(t: Row): string {
  const a = addressOf(t);
  return a?.kind === 'tcp' && a.tls ? a.tls.fingerprint || 'none' : 'none';
}

/** A terminal row as the counter needs it to drive the terminal without the gateway. */
export function knownOf(t: Row): KnownTerminal {
  return {
    id: String(t.id),
    title: String(t.title || t.serial_number),
    address: addressOf(t) as DeviceAddress,
    settings: { timeouts: effectiveTimeouts(parseJson(t.terminal_timeouts)), tipPercents: tipPercentsOf(parseJson(t.tip_percents)) },
  };
}

export function toRecord(t: Row): TerminalRecord {
  const addr = addressOf(t) ?? { kind: 'tcp' as const, host: '', port: Number(t.port ?? 10009) };
  return {
    id: String(t.id),
    title: String(t.title ?? ''),
    serialNumber: String(t.serial_number ?? ''),
    address: addr,
    applicationId: String(t.terminal_application_id ?? ''),
    manufacturerId: String(t.terminal_manufacturer_id ?? ''),
    timeouts: effectiveTimeouts(parseJson(t.terminal_timeouts)),
    tipPercents: tipPercentsOf(parseJson(t.tip_percents)),
    lastRegistrationTs: typeof t.last_registration_ts === 'number' ? t.last_registration_ts : null,
  };
}

export const scannerRecord = (s: Row): ScannerRecord => ({
  id: String(s.id),
  title: String(s.title ?? ''),
  serialNumber: String(s.serial_number ?? ''),
  modelId: Number(s.scanner_model_id ?? 1),
  path: String(s.serial_path ?? ''),
});
