/**
 * Postback deliveries survive a kill -9: the real standalone engine (build/node/gateway-cli.mjs)
 * in a child process queues postbacks for contacts created by concurrent clients while the
 * receiver refuses them, is SIGKILLed mid-flight, restarted on the same data folder, and
 * then every acknowledged contact's CREATE reaches the (now accepting) receiver, and no
 * postback names a contact that does not exist.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEngineBundle, startStandaloneEngine, type StandaloneCreds } from '../../helpers/standalone-engine';
import { Receiver } from './receiver';

type Creds = StandaloneCreds;


let dir: string;
let rx: Receiver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  buildEngineBundle();
  dir = mkdtempSync(join(tmpdir(), 'ringup-pb-kill9-'));
  rx = await Receiver.start(Number.MAX_SAFE_INTEGER);
}, 120_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await rx.close();
  rmSync(dir, { recursive: true, force: true });
});

const headersOf = (c: Creds) => ({ 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key, 'content-type': 'application/json' });

describe('postbacks under kill -9', () => {
  it('delivers every acknowledged event after a kill -9 and a restart, and invents none', async () => {
    const dataDir = join(dir, 'engine');
    const first = await startStandaloneEngine(dataDir);
    children.push(first.child);
    const c = first.creds;
    const cfg = await fetch(`${c.base_url}/postbackconfigs`, {
      method: 'POST',
      headers: headersOf(c),
      body: JSON.stringify({ postbackconfig: { location_id: c.location_id, resource: 'contact', url: rx.url, on_create: 1, on_update: 0, number_of_attempts: 10, attempt_interval: 1 } }),
    });
    expect(cfg.status).toBe(201);

    const acked = new Set<string>();
    let killed = false;
    const client = async () => {
      while (!killed) {
        try {
          const res = await fetch(`${c.base_url}/contacts`, { method: 'POST', headers: headersOf(c), body: JSON.stringify({ contact: { location_id: c.location_id, last_name: 'Kill' } }) });
          const body = (await res.json()) as { contact?: { id: string } };
          if (res.status === 201 && body.contact) acked.add(body.contact.id);
        } catch {
          return; // the engine is gone
        }
      }
    };
    const running = Array.from({ length: 8 }, client);
    while (acked.size < 150 || rx.received.length < 50) await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGKILL');
    killed = true;
    await Promise.all(running);
    expect(rx.accepted).toHaveLength(0); // nothing was acknowledged before the kill

    rx.failures = 0;
    const second = await startStandaloneEngine(dataDir);
    children.push(second.child);
    const deliveredIds = () => new Set(rx.accepted.map((r) => (JSON.parse(r.form.data as string) as { id: string }).id));
    const deadline = Date.now() + 30_000;
    while ([...acked].some((id) => !deliveredIds().has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const delivered = deliveredIds();
    expect([...acked].filter((id) => !delivered.has(id))).toEqual([]);

    // Every postback names a contact that exists (in-flight creates at the kill may exist unacknowledged).
    const c2 = second.creds;
    const list = await fetch(`${c2.base_url}/contacts?page_size=5000`, { headers: headersOf(c2) });
    const stored = new Set(((await list.json()) as { contacts: { id: string }[] }).contacts.map((x) => x.id));
    expect([...delivered].filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(delivered.size);
    for (const r of rx.accepted) expect(r.form.type).toBe('CREATE');
  }, 90_000);
});
