/**
 * TLS on the terminal link while the gateway is away (issues 13 and 20, point 1): the core drives
 * the terminal itself for a store-and-forward read, over the same pinned TLS link. The terminal it
 * knows presents its pinned certificate: the read is taken over TLS and queued. Something at its
 * address presenting another certificate is refused before anything is sent: nothing read or
 * queued, a device fault recorded, the sentence shown.
 * Real pieces: a counter core against a real engine behind a real TCP gate (down for the outage),
 * the terminal simulator serving TLS on real TCP ports, openssl-made certificates, real SQLite.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_APPROVED } from '../../electron/core/queue/offline-sales';
import { DEVICE_MSG } from '../../electron/devices/device-messages';
import { selfSignedIdentity, type TlsIdentity } from '../../electron/devices/sim/self-signed-cert';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';
import { useGatedEngine, type OpenCore } from '../helpers/core-harness';
import { standaloneHeaders } from '../helpers/standalone-engine';

const g = useGatedEngine('ringup-offline-tls-engine-');
let sim: TerminalSimulator;
let cert: TlsIdentity;
let impostor: TlsIdentity;
let tlsPort: number;
let impostorPort: number;
let terminalId: string;
const opened: OpenCore[] = [];

beforeAll(async () => {
  cert = selfSignedIdentity('SIM-OFFLINE-TLS');
  impostor = selfSignedIdentity('IMPOSTOR');
  sim = new TerminalSimulator();
  sim.script.stepMs = 10;
  tlsPort = await sim.listenTls(cert);
  impostorPort = await sim.listenTls(impostor);
  const list = (await (await fetch(`${g.creds.base_url}/terminals`, { headers: standaloneHeaders(g.creds) })).json()) as { terminals: Array<{ id: string }> };
  terminalId = list.terminals[0]!.id;
}, 30_000);
afterAll(async () => {
  for (const c of opened) await c.core.close();
  await sim?.close();
});

/** Points the terminal at `port`, pinned to the terminal's own certificate. */
async function pinnedAt(port: number): Promise<void> {
  const put = await fetch(`${g.creds.base_url}/terminals/${terminalId}`, {
    method: 'PUT',
    headers: standaloneHeaders(g.creds),
    body: JSON.stringify({ terminal: { local_ip_address: '127.0.0.1', port, tls: 1, tls_fingerprint: cert.fingerprint } }),
  });
  expect(put.status).toBe(200);
}

async function counterInOutage(): Promise<{ c: OpenCore; dir: string }> {
  const dir = g.tempDir('ringup-offline-tls-counter-');
  const c = await g.openCounter(dir, { deviceStatusIntervalMs: 0, settings: () => DEFAULT_STORE_SETTINGS });
  opened.push(c);
  await c.signInAs('Casey', '0000');
  // Online first: the counter learns its terminal (with its pin) from the gateway.
  expect(await c.call('devices:terminal-status')).toMatchObject({ ok: true, value: { title: 'Demo Terminal' } });
  await g.outage(c);
  return { c, dir };
}

const faultRows = (dir: string) => {
  const db = new Database(join(dir, 'ringup.db'), { readonly: true });
  try {
    return db.prepare("SELECT detail FROM audit_log WHERE kind = 'device-fault' ORDER BY seq").all() as Array<{ detail: string }>;
  } finally {
    db.close();
  }
};

describe('an offline terminal sale on a TLS terminal', () => {
  it('is read over TLS when the terminal presents the pinned certificate', async () => {
    await pinnedAt(tlsPort);
    const { c } = await counterInOutage();
    const sold = await c.call('devices:terminal-sale', { subtotalCents: 1_234, taxCents: 0, tipCents: 0, clientRef: `offline-tls-${process.pid}-1` });
    expect(sold).toMatchObject({ ok: true, value: { approved: true, message: OFFLINE_APPROVED } });
    await g.gate.up();
  });

  it('is refused when another certificate answers at its address: nothing read or queued, a device fault recorded', async () => {
    await pinnedAt(impostorPort);
    const { c, dir } = await counterInOutage();
    const asked = sim.received.length;
    const r = await c.call('devices:terminal-sale', { subtotalCents: 1_500, taxCents: 0, tipCents: 0, clientRef: `offline-tls-${process.pid}-2` });
    expect(r).toMatchObject({ ok: false, error: { code: 'device_fault', message: DEVICE_MSG.CERT_MISMATCH } });
    expect(sim.received.length).toBe(asked);
    expect(await c.call('queue:status')).toMatchObject({ ok: true, value: { pendingCount: 0 } });
    expect(faultRows(dir).at(-1)?.detail).toContain(`certificate presented: ${impostor.fingerprint}; pinned: ${cert.fingerprint}`);
    await g.gate.up();
  });
});
