/**
 * A real PostgreSQL server for one test file (issue 24): Debian's `postgresql` package, a fresh
 * cluster made with `initdb` in a temporary folder and started with `pg_ctl` on a free port,
 * listening on 127.0.0.1 only. `initdb` refuses to run as root, so when the tests run as root
 * (CI), the cluster is made and started as the `postgres` user (runuser) on a folder it owns.
 * `.ci/run` installs the package.
 *
 * `stop()` stops it ('immediate': nothing of it is kept) and removes the folder. `kill()` is a
 * kill -9 of the postmaster, for fault tests that then `start()` it again on the same folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  readonly url: string;
  readonly port: number;
  /** A new empty database on this server, answered as its URL. */
  createDatabase(name: string): string;
  /** Runs SQL as the superuser (psql), answers its output (tuples only, unaligned). */
  sql(database: string, statement: string): string;
  start(): void;
  kill(): void;
  stop(): void;
}

/** The folder with initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/<version>/bin. */
export function postgresBinDir(): string | null {
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) {
    // /usr/local/bin/initdb may be a link to Debian's: the folder it really is in has pg_ctl and psql of the same version.
    return dirname(realpathSync(which.stdout.trim()));
  }
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(base, versions[0]!, 'bin') : null;
}

export const postgresAvailable = postgresBinDir() !== null;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function postgresIds(): { uid: number; gid: number } | null {
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (r.status !== 0 || g.status !== 0) return null;
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed: sudo apt-get install -y postgresql (Debian's package; .ci/run installs it).");
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? postgresIds() : null;
  if (asRoot && !ids) throw new Error('Running as root, and there is no postgres user to run PostgreSQL as (initdb refuses root).');
  const dir = mkdtempSync(join(tmpdir(), 'ringup-pg-'));
  const data = join(dir, 'data');
  const socketDir = dir;
  if (ids) {
    chownSync(dir, ids.uid, ids.gid);
    chmodSync(dir, 0o700);
  }
  // As the postgres user when root; the environment is kept small (no PGDATA etc. from outside).
  const run = (tool: string, args: string[]) => {
    const cmd = join(bin, tool);
    const res = ids ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' }) : spawnSync(cmd, args, { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed: ${res.stderr || res.stdout}`);
    return res.stdout;
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '-N']);
  const port = await freePort();
  const conf = join(data, 'postgresql.conf');
  // Loopback only, its own socket folder; fsync off: a test cluster, thrown away (the fault tests kill the store server, not PostgreSQL's disk).
  writeFileSync(conf, `${readFileSync(conf, 'utf8')}\nlisten_addresses = '127.0.0.1'\nport = ${port}\nunix_socket_directories = '${socketDir}'\nfsync = off\nsynchronous_commit = on\nfull_page_writes = off\nmax_connections = 200\n`);
  const start = () => {
    run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  };
  start();
  const psql = (database: string, statement: string) =>
    execFileSync(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', statement], { encoding: 'utf8' });
  const pidOf = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    createDatabase(name: string) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      psql('postgres', `CREATE DATABASE ${name}`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    sql: psql,
    start,
    kill() {
      try {
        process.kill(pidOf(), 'SIGKILL');
      } catch {
        // already gone
      }
    },
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
