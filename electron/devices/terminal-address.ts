/**
 * Where a stored terminal is, read from its record (the engine's terminals row, as the engine's
 * router and the counter's core both read it): `local_ip_address` + `port` over TCP — over TLS
 * pinned to `tls_fingerprint` when `tls` is on (issue 20, point 1) — or Ringup's `serial_path`
 * when `communication_type` is "serial"; null when it has neither.
 * A record with TLS on and no fingerprint (only writable around the engine's validation) keeps
 * TLS with an empty pin, which no certificate matches: it is refused, never reached in plain TCP.
 */
import { TERMINAL_PORT } from './device-places';
import type { DeviceAddress } from './device-link';

type Row = Record<string, unknown>;

const on = (v: unknown) => v === 1 || v === true || v === '1';

export function terminalRowAddress(t: Row): DeviceAddress | null {
  if (t.communication_type === 'serial' && typeof t.serial_path === 'string' && t.serial_path) return { kind: 'serial', path: t.serial_path };
  if (typeof t.local_ip_address !== 'string' || !t.local_ip_address) return null;
  const port = typeof t.port === 'number' ? t.port : t.port ? Number(t.port) : TERMINAL_PORT;
  if (!on(t.tls)) return { kind: 'tcp', host: t.local_ip_address, port };
  return { kind: 'tcp', host: t.local_ip_address, port, tls: { fingerprint: typeof t.tls_fingerprint === 'string' ? t.tls_fingerprint : '' } };
}
