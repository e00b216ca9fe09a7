/**
 * The data folder is owner-only whatever folder `--data` names (issue 20, point 9): an
 * installer may point it at a folder that already exists with 0755 and the process may run
 * under the usual umask 022; every folder the core ends up with in it is 0700 and every
 * file 0600 (ringup.db and its -wal/-shm, keys-id, the engine's folder and its database…).
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCore } from '../../electron/core/app-core';
import { resolveDataDir } from '../../electron/core/platform/data-dir';

const dirs: string[] = [];
let umaskBefore: number | undefined;
afterEach(() => {
  if (umaskBefore !== undefined) process.umask(umaskBefore);
  umaskBefore = undefined;
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

/** Every path under root with its permission bits, root included. */
function modes(root: string): Array<[string, string, number]> {
  const out: Array<[string, string, number]> = [];
  const walk = (p: string, rel: string) => {
    const st = statSync(p);
    out.push([rel || '.', st.isDirectory() ? 'dir' : 'file', st.mode & 0o777]);
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n), rel ? `${rel}/${n}` : n);
  };
  walk(root, '');
  return out;
}

const loose = (root: string) => modes(root).filter(([, kind, m]) => m !== (kind === 'dir' ? 0o700 : 0o600)).map(([p, kind, m]) => `${kind} ${p} ${m.toString(8)}`);

/** A folder that already exists 0755, as --data may name one, with a umask of 022 from here on. */
function looseFolder(): string {
  umaskBefore = process.umask(0o022);
  const parent = mkdtempSync(join(tmpdir(), 'ringup-modes-'));
  dirs.push(parent);
  const d = join(parent, 'store');
  mkdirSync(d, { mode: 0o755 });
  chmodSync(d, 0o755);
  return d;
}

describe('data folder modes', () => {
  it('tightens an existing 0755 folder named by --data to 0700', () => {
    const d = looseFolder();
    expect(resolveDataDir(['--data', d], {})).toBe(d);
    expect(statSync(d).mode & 0o777).toBe(0o700);
  });

  it('creates every folder 0700 and every file 0600 in it, and tightens an older ringup.db left 0644', async () => {
    const d = looseFolder();
    const dataDir = resolveDataDir(['--data', d], {});
    const core = await startCore({ dataDir, shell: 'node-host', healthIntervalMs: 0, deviceStatusIntervalMs: 0 });
    try {
      // A day's first writes: a sign-in makes the WAL and the audit rows.
      const users = await core.handlers['auth:users']();
      const morgan = users.ok ? users.value.users.find((u) => u.name === 'Morgan') : undefined;
      expect(morgan).toBeDefined();
      expect((await core.handlers['auth:sign-in']({ userId: morgan!.id, pin: '1234' })).ok).toBe(true);
      expect(loose(d)).toEqual([]);
    } finally {
      await core.close();
    }

    // An older install: its database and WAL were made 0644 and its folders 0755.
    for (const f of ['ringup.db', 'ringup.db-wal', 'ringup.db-shm']) {
      writeFileSync(join(d, f), '', { flag: 'a' });
      chmodSync(join(d, f), 0o644);
    }
    chmodSync(join(d, 'gateway'), 0o755);
    chmodSync(d, 0o755);
    const again = await startCore({ dataDir: resolveDataDir(['--data', d], {}), shell: 'node-host', healthIntervalMs: 0, deviceStatusIntervalMs: 0 });
    try {
      expect(loose(d)).toEqual([]);
    } finally {
      await again.close();
    }
  }, 60_000);
});
