/**
 * An unknown outcome is durable (issue 20, point 3). On every way to pay — keyed card, saved
 * card, terminal, check, and the cart's card, saved-card and terminal tenders — a real register
 * process (test/offline/lost-answer-child.ts: the app's core on its own data folder, pointed at
 * a real standalone engine through a real TCP proxy) pays, the proxy holds the gateway's answer
 * (the engine has charged), and the register is killed with SIGKILL. It is started again on
 * the same folder: the next person who signs in sees what became of the payment, and the
 * cashier acts on what the screen said (charging again unless it said approved). KILL_RUNS
 * times per way. Each run must end exactly once at the gateway (one approved charge of that
 * run's amount) and once in the app: one clerk record naming the cashier who rang it up, an
 * audit row for it, and the cart (for the cart's ways) paid by that one charge.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { amountOf, KILL_WAYS, type KillWay } from '../offline/lost-answer-ways';
import { buildEngineBundle, standaloneHeaders, startStandaloneEngine, type StandaloneCreds } from '../helpers/standalone-engine';
import { bundleTestChild } from '../helpers/child-bundle';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

const KILL_RUNS = Number(process.env.RINGUP_KILL_RUNS ?? 20);
/** The payment POSTs whose answers are held: a sale, a debit, a check, a terminal sale. */
const PAYMENT_POST = /^POST \/v2\/(transactions|routertransactions) /;

let dir: string;
let childEntry: string;
let engine: ChildProcess | undefined;
let creds: StandaloneCreds;
let sim: TerminalSimulator;
let terminalPort = 0;

beforeAll(async () => {
  buildEngineBundle();
  dir = mkdtempSync(join(tmpdir(), 'ringup-lost-kill-'));
  childEntry = await bundleTestChild('test/offline/lost-answer-child.ts', 'lost-answer-child');
  const e = await startStandaloneEngine(join(dir, 'engine'));
  engine = e.child;
  creds = e.creds;
  sim = new TerminalSimulator();
  sim.script.stepMs = 5;
  terminalPort = await sim.listenTcp(0);
}, 120_000);

afterAll(async () => {
  if (engine && engine.exitCode === null) engine.kill('SIGKILL');
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Start {
  lines: string[];
  exit: Promise<{ code: number | null; signal: string | null }>;
  child: ChildProcess;
  stderr: () => string;
}

function start(way: KillWay, dataDir: string, proxy: TcpProxy, run: number): Start {
  const child = spawn(process.execPath, [childEntry, dataDir, `${proxy.origin}/v2`, JSON.stringify(creds), way, String(run), String(KILL_RUNS), String(terminalPort)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, RINGUP_KEYS_DIR: join(dataDir, '..', `${way}-keys`) },
  });
  const lines: string[] = [];
  let buf = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: string | null }>((res) => child.on('exit', (code, signal) => res({ code, signal })));
  return { lines, exit, child, stderr: () => err };
}

/** Waits until `ok()` holds, the process is still running and 60 s have not passed. */
async function until(s: Start, ok: () => boolean, what: string): Promise<void> {
  let exited = false;
  void s.exit.then(() => (exited = true));
  for (let i = 0; i < 1200; i++) {
    if (ok()) return;
    if (exited) throw new Error(`the register exited before ${what}: ${s.lines.join(' | ')} ${s.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}: ${s.lines.join(' | ')} ${s.stderr()}`);
}

/** The engine's approved (or accepted, for a check) payments of `cents`, asked of the engine directly. */
async function chargesAtEngine(cents: number): Promise<Array<{ id: string; status_id: number | string }>> {
  const amount = (cents / 100).toFixed(2);
  const res = await fetch(`${creds.base_url}/transactions?transaction_amount=${amount}&page_size=100`, { headers: standaloneHeaders(creds) });
  const body = (await res.json()) as { transactions: Array<{ id: string; status_id: number | string; transaction_amount: string }> };
  return body.transactions.filter((t) => t.transaction_amount === amount && [101, 102, 131, 132, 134].includes(Number(t.status_id)));
}

describe('a payment whose answer is lost, then kill -9 and a restart', () => {
  for (const way of KILL_WAYS) {
    it(`${way}: ${KILL_RUNS} kills with the answer held, each payment charged once and counted once as its cashier's`, async () => {
      const dataDir = join(dir, way);
      mkdirSync(dataDir, { recursive: true });
      const proxy = await startTcpProxy(Number(new URL(creds.base_url).port));
      const shown: string[] = [];
      let recharged = 0;
      try {
        for (let run = 0; run <= KILL_RUNS; run++) {
          const s = start(way, dataDir, proxy, run);
          if (run > 0) {
            await until(s, () => s.lines.includes(`RESOLVED ${run - 1}`), `run ${run - 1} resolved`);
            shown.push(s.lines.find((l) => l.startsWith('LOST ')) ?? 'LOST none');
            if (s.lines.includes('RECHARGED')) recharged++;
            await expectOnce(way, dataDir, run - 1);
          }
          if (run < KILL_RUNS) {
            await until(s, () => s.lines.includes(`READY ${run}`), `run ${run} ready`);
            const release = proxy.hold(PAYMENT_POST);
            s.child.stdin!.write('go\n');
            await until(s, () => s.lines.includes(`PAYING ${run}`) && proxy.heldAnswers > 0, `run ${run}'s answer held`);
            s.child.kill('SIGKILL');
            expect((await s.exit).signal).toBe('SIGKILL');
            release();
          } else {
            s.child.stdin!.end();
            expect(await s.exit, s.stderr()).toEqual({ code: 0, signal: null });
          }
        }
      } finally {
        await proxy.close();
      }
      // What the next person saw after each restart: the payment, approved, with its cashier.
      expect(recharged).toBe(0);
      expect(shown.filter((l) => !l.includes('"state":"approved"') || !l.includes('"cashier":"Casey"'))).toEqual([]);
    }, 600_000);
  }
});

/** Run `run` of `way` ended exactly once at the gateway and once in the app. */
async function expectOnce(way: KillWay, dataDir: string, run: number): Promise<void> {
  const cents = amountOf(way, run);
  const charges = await chargesAtEngine(cents);
  expect(charges.map((c) => c.id), `${way} run ${run}: charges of ${cents} cents at the gateway`).toHaveLength(1);
  const id = charges[0]!.id;
  const db = new Database(join(dataDir, 'ringup.db'), { readonly: true });
  try {
    const clerks = db.prepare("SELECT user_name FROM clerk_records WHERE transaction_id = ? AND action = 'sale'").all(id) as Array<{ user_name: string }>;
    expect(clerks.map((c) => c.user_name), `${way} run ${run}: who rang it up`).toEqual(['Casey']);
    const audited = db.prepare('SELECT COUNT(*) AS n FROM audit_log WHERE transaction_id = ?').get(id) as { n: number };
    expect(audited.n, `${way} run ${run}: audited`).toBeGreaterThan(0);
    if (way.startsWith('cart-')) {
      const cart = db.prepare('SELECT c.status, COUNT(t.id) AS paid FROM cart_tenders t JOIN carts c ON c.id = t.cart_id WHERE t.transaction_id = ? GROUP BY c.id').all(id) as Array<{ status: string; paid: number }>;
      expect(cart, `${way} run ${run}: the cart paid by that one charge`).toEqual([{ status: 'paid', paid: 1 }]);
    }
  } finally {
    db.close();
  }
}
