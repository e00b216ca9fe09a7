/**
 * The core in its own process, for real (issue 22, point 4): the built core child forked the
 * way the node host forks it, driven through startCoreProcess as a shell would. The dispatcher
 * runs in the child (origin, schema), answers come back by id, events come back with the caller
 * they are for, a caller's disconnect ends its session, the shell port carries the secrets and
 * the printer (the app's shape: main keeps the keys, nothing lands in a key folder), close()
 * ends the process with SQLite checkpointed, and a core that dies is heard, its waiting calls
 * answered.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CoreStatus, Session } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';
import { CORE_PROCESS_MESSAGES, forkCore, startCoreProcess, type CoreProcess } from '../../electron/core-process/core-process';
import type { ShellPort } from '../../electron/core-process/shell-port';
import type { SecretStore } from '../../electron/secrets/secret-store';
import { KEYS_DIR_ENV } from '../../electron/core/keys/node-host-keys';
import { buildNodeBundle, removeBundle } from '../helpers/host-process';

const ORIGIN = 'http://127.0.0.1:5123';
let bundle: string;
let root: string;

beforeAll(async () => {
  bundle = await buildNodeBundle();
  root = mkdtempSync(join(tmpdir(), 'ringup-coreproc-'));
}, 120_000);

afterAll(() => {
  if (bundle) removeBundle(bundle);
  rmSync(root, { recursive: true, force: true });
});

function memoryStore(): SecretStore & { map: Map<string, Buffer> } {
  const map = new Map<string, Buffer>();
  return { backend: 'memory-keychain', map, get: async (n) => map.get(n) ?? null, set: async (n, v) => void map.set(n, Buffer.from(v)), delete: async (n) => void map.delete(n) };
}

/** A core process as the app starts it (engine inside it here: no engine entry is given). */
async function startAppCore(name: string, shell: ShellPort): Promise<{ core: CoreProcess; dataDir: string; keysDir: string }> {
  const dataDir = join(root, name);
  const keysDir = join(root, `${name}-keys`);
  // The child's environment is the parent's at fork time: a key folder it must never use.
  const before = process.env[KEYS_DIR_ENV];
  process.env[KEYS_DIR_ENV] = keysDir;
  try {
    const core = await startCoreProcess(forkCore(join(bundle, 'core', 'core-child.mjs')), { dataDir, shell: 'electron', allowedOrigins: [ORIGIN], skipFirstRun: true }, shell);
    return { core, dataDir, keysDir };
  } finally {
    process.env[KEYS_DIR_ENV] = before;
  }
}

const from = (callerId: string, url = `${ORIGIN}/`) => ({ url, isMainFrame: true, callerId });

describe('the core in its own process', () => {
  const secrets = memoryStore();
  const printReport = vi.fn(async (name: string, paper: string) => `/tmp/${name}-${paper}.pdf`);
  let run: Awaited<ReturnType<typeof startAppCore>>;

  beforeAll(async () => {
    run = await startAppCore('app', { secrets, printReport });
  }, 120_000);

  afterAll(async () => {
    await run?.core.close();
  });

  it('answers through the dispatcher in the child: its status, an unknown origin refused, a bad argument refused with its fields', async () => {
    expect(run.core.status()).toMatchObject({ shell: 'electron', gateway: { mode: 'embedded', health: 'ok' } });
    expect(run.core.pid).toBeGreaterThan(0);
    expect(run.core.pid).not.toBe(process.pid);
    const status = (await run.core.dispatch('core:status', from('wc-1'), undefined)) as Result<CoreStatus>;
    expect(status).toMatchObject({ ok: true, value: { dataDir: run.dataDir, shell: 'electron' } });
    expect(await run.core.dispatch('core:status', from('wc-1', 'https://evil.example/'), undefined)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await run.core.dispatch('auth:sign-in', from('wc-1'), { userId: 42 })).toMatchObject({ ok: false, error: { code: 'bad_request', fields: expect.any(Object) } });
    expect(await run.core.dispatch('no:such-channel', from('wc-1'), undefined)).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
  });

  it("keeps the core's keys with the shell through the port: in main's store, none in a key folder", () => {
    expect([...secrets.map.keys()]).toEqual(expect.arrayContaining(['vault-key', 'pin-pepper']));
    expect(existsSync(run.keysDir) ? readdirSync(run.keysDir) : []).toEqual([]);
  });

  it('gives each caller its own sign-in: the session event comes back for that caller only, and its disconnect ends it', async () => {
    const seen: Array<{ event: string; to: string | undefined }> = [];
    const off = run.core.events.subscribe((event, _payload, to) => seen.push({ event, to }));
    try {
      const users = (await run.core.dispatch('auth:users', from('wc-1'), undefined)) as Result<{ users: Array<{ id: string; name: string }> }>;
      const morgan = users.ok && users.value.users.find((u) => u.name === 'Morgan');
      expect(morgan).toBeTruthy();
      expect(await run.core.dispatch('auth:sign-in', from('wc-1'), { userId: (morgan as { id: string }).id, pin: '1234' })).toMatchObject({ ok: true, value: { user: { name: 'Morgan' } } });
      await vi.waitFor(() => expect(seen).toContainEqual({ event: 'auth:session', to: 'wc-1' }));
      expect(seen.filter((e) => e.event === 'auth:session').map((e) => e.to)).toEqual(['wc-1']);
      expect(await run.core.dispatch('auth:session', from('wc-2'), undefined)).toEqual({ ok: true, value: null });
      expect(((await run.core.dispatch('auth:session', from('wc-1'), undefined)) as Result<Session | null>).ok).toBe(true);
      expect(((await run.core.dispatch('auth:session', from('wc-1'), undefined)) as { value: Session | null }).value?.user.name).toBe('Morgan');

      // The manager prints a report: the core asks main's printer through the port.
      expect(await run.core.dispatch('reports:print', from('wc-1'), { paper: 'a4', name: 'x-report' })).toEqual({ ok: true, value: { savedTo: '/tmp/x-report-a4.pdf' } });
      expect(printReport).toHaveBeenCalledWith('x-report', 'a4');

      run.core.disconnect('wc-1');
      await vi.waitFor(async () => expect(await run.core.dispatch('auth:session', from('wc-1'), undefined)).toEqual({ ok: true, value: null }));
    } finally {
      off();
    }
  });

  it('closes cleanly: the process ends and ringup.db is checkpointed (no WAL left)', async () => {
    const pid = run.core.pid!;
    await run.core.close();
    expect(() => process.kill(pid, 0)).toThrow();
    expect(existsSync(join(run.dataDir, 'ringup.db'))).toBe(true);
    expect(existsSync(join(run.dataDir, 'ringup.db-wal'))).toBe(false);
    // A call after it is answered, not left waiting.
    expect(await run.core.dispatch('core:status', from('wc-1'), undefined)).toEqual({ ok: false, error: { code: 'internal', message: CORE_PROCESS_MESSAGES.gone } });
  });
});

describe('a core process that dies', () => {
  it('is heard (how it ended), and the calls waiting on it are answered', { timeout: 120_000 }, async () => {
    const { core } = await startAppCore('dies', {});
    const heard: string[] = [];
    core.onUnexpectedExit((how) => heard.push(how));
    // Stopped first, so the call is surely still waiting when the process dies.
    process.kill(core.pid!, 'SIGSTOP');
    const waiting = core.dispatch('gateway:check', from('ws-1'), undefined);
    process.kill(core.pid!, 'SIGKILL');
    expect(await waiting).toEqual({ ok: false, error: { code: 'internal', message: CORE_PROCESS_MESSAGES.gone } });
    await vi.waitFor(() => expect(heard).toEqual(['killed by SIGKILL']));
    await core.close();
    expect(heard).toHaveLength(1);
  });

  it('a start that fails says why', { timeout: 60_000 }, async () => {
    // RINGUP_GATEWAY_URL without its keys: the core refuses to start (remoteGatewayFromEnv).
    const before = process.env.RINGUP_GATEWAY_URL;
    process.env.RINGUP_GATEWAY_URL = 'http://127.0.0.1:9/v2';
    try {
      await expect(startAppCore('fails', {})).rejects.toThrow(/RINGUP_DEVELOPER_ID/);
    } finally {
      if (before === undefined) delete process.env.RINGUP_GATEWAY_URL;
      else process.env.RINGUP_GATEWAY_URL = before;
    }
  });
});
