/**
 * The node host with its core in a child process, as `npm start` and the e2e run it (issue 22,
 * point 4): the host keeps the HTTP server and the WebSocket bridge, its one child is the core
 * (whose child is the engine), `--json` prints the same line with the gateway the core reported,
 * calls over the socket reach the core and come back. SIGTERM closes the core cleanly (SQLite
 * checkpointed) and leaves no process behind; a core that dies is not silent: the host says so
 * and exits 1, and the engine goes with it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { HOST_MESSAGES } from '../../electron/host/host-server';
import { buildNodeBundle, removeBundle, startHostProcess, type HostProcess } from '../helpers/host-process';

let bundle: string;
beforeAll(async () => {
  bundle = await buildNodeBundle();
}, 120_000);
afterAll(() => {
  if (bundle) removeBundle(bundle);
});

function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

/** Running: it exists and is not a zombie waiting for a parent to reap it (an orphan's exit leaves one where init does not reap). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function exitOf(host: HostProcess): Promise<number | null> {
  return new Promise((resolve) => (host.exited() ? resolve(host.child.exitCode) : host.child.once('exit', (code) => resolve(code))));
}

async function callOnce(host: HostProcess, channel: string): Promise<unknown> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, { headers: { origin: host.origin } });
  try {
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answer = new Promise<unknown>((resolve) =>
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString()) as { type: string; result?: unknown };
        if (m.type === 'ready') ws.send(JSON.stringify({ type: 'call', id: 1, channel }));
        if (m.type === 'result') resolve(m.result);
      }),
    );
    ws.send(JSON.stringify({ type: 'hello', token: host.token }));
    return await answer;
  } finally {
    ws.close();
  }
}

describe('the node host and its core process', () => {
  it("the host's one child is the core, the core's is the engine; calls reach it; SIGTERM stops both cleanly", { timeout: 120_000 }, async () => {
    const host = await startHostProcess(bundle);
    const [core, ...others] = childrenOf(host.child.pid!);
    expect(others).toEqual([]);
    expect(readFileSync(`/proc/${core}/cmdline`, 'utf8')).toContain('core-child.mjs');
    const [engine] = childrenOf(core!);
    expect(readFileSync(`/proc/${engine}/cmdline`, 'utf8')).toContain('engine-child.mjs');
    expect(await callOnce(host, 'core:status')).toMatchObject({ ok: true, value: { shell: 'node-host', dataDir: host.dataDir, gateway: { mode: 'embedded' } } });

    const exited = exitOf(host);
    host.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(running(core!)).toBe(false);
    await vi.waitFor(() => expect(running(engine!)).toBe(false), { timeout: 10_000 });
    // The core's close() ran: its database was checkpointed and closed.
    expect(existsSync(join(host.dataDir, 'ringup.db-wal'))).toBe(false);
    await host.stop();
  });

  it('a core that dies is not silent: the host says so on stderr and exits 1; the engine goes too', { timeout: 120_000 }, async () => {
    const host = await startHostProcess(bundle);
    const [core] = childrenOf(host.child.pid!);
    const [engine] = childrenOf(core!);
    const exited = exitOf(host);
    process.kill(core!, 'SIGKILL');
    expect(await exited).toBe(1);
    expect(host.stderr()).toContain(HOST_MESSAGES.coreExited.replace('{how}', 'killed by SIGKILL'));
    await vi.waitFor(() => expect(running(engine!)).toBe(false), { timeout: 10_000 });
    await host.stop();
  });
});
