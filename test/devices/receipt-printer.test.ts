/**
 * The core's receipt printer service (electron/core/printers/receipt-printer.ts) with the real
 * ESC/POS driver against the printer simulator over a real TCP socket and a socat serial line,
 * on a real app database: the print queue keeps what cannot print and prints it once, in order,
 * when the printer is back; the drawer kick, its open bit and the flag of a drawer left open.
 * Waits are on state (the simulator's receipts, the service's status), never on the clock; the
 * drawer's time is the test's own clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openPosDatabase, type PosDatabase } from '../../electron/core/platform/pos-database';
import { AuditLog } from '../../electron/core/audit/audit-log';
import { CoreEvents } from '../../electron/core/platform/events';
import { PrinterRegistry } from '../../electron/core/printers/printer-registry';
import { PrintQueue } from '../../electron/core/printers/print-queue';
import { ReceiptPrinter } from '../../electron/core/printers/receipt-printer';
import { encodeForPrinter, openEscPosPrinter } from '../../electron/core/printers/printer-open';
import { PrinterSimulator } from '../../electron/devices/sim/printer-simulator';
import type { PrinterSettings, PrinterStatusView } from '../../shared/ipc/contract';
import { tempDirs } from '../helpers/temp-dirs';
import { socatPair, type PtyPair } from './helpers/socat-pair';

const { newDir } = tempDirs();

interface Rig {
  db: PosDatabase;
  sim: PrinterSimulator;
  service: ReceiptPrinter;
  queue: PrintQueue;
  audit: AuditLog;
  pushed: PrinterStatusView[];
  clock: { t: number };
}

const rigs: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});

const settings = (address: PrinterSettings['address']): PrinterSettings => ({ name: 'Counter printer', address, paper: '80mm', charsPerLine: 48, cut: true, logo: null, active: true });

async function rig(kind: 'tcp' | 'serial' = 'tcp'): Promise<Rig> {
  const dir = newDir('ringup-printer-');
  const db = openPosDatabase(dir);
  const sim = new PrinterSimulator({ outDir: join(dir, 'paper') });
  let pty: PtyPair | null = null;
  let address: PrinterSettings['address'];
  if (kind === 'tcp') address = { kind: 'tcp', host: '127.0.0.1', port: await sim.listenTcp(0) };
  else {
    pty = await socatPair();
    await sim.attachSerial(pty.b);
    address = { kind: 'serial', path: pty.a, baud: 9600 };
  }
  const registry = new PrinterRegistry(db);
  registry.save(undefined, settings(address));
  const queue = new PrintQueue(db);
  const events = new CoreEvents();
  const pushed: PrinterStatusView[] = [];
  events.subscribe((e, p) => {
    if (e === 'printer:status') pushed.push(p as PrinterStatusView);
  });
  const clock = { t: 1_700_000_000_000 };
  const audit = new AuditLog(db, () => clock.t);
  const service = new ReceiptPrinter({ registry, queue, open: openEscPosPrinter, encode: encodeForPrinter, storeName: () => 'Corner Café', events, audit, drawerAlertSeconds: () => 60, who: () => ({ id: 'u1', name: 'Casey' }), now: () => clock.t });
  rigs.push({
    close: async () => {
      await service.close();
      await sim.close();
      await pty?.close();
      db.close();
    },
  });
  return { db, sim, service, queue, audit, pushed, clock };
}

const job = (n: number) => ({ what: 'receipt', ref: `t${n}`, copy: 'customer' as const, title: `receipt ${n}`, document: `Receipt number ${n}\n---\nTotal | $${n}.00` });

describe('the receipt printer service over TCP', () => {
  it('prints a receipt and says printed; the simulator shows its text', async () => {
    const r = await rig();
    const out = await r.service.print([job(1)]);
    expect(out).toEqual({ state: 'printed', copies: 1 });
    expect(r.sim.receipts().map((x) => x.text).join('\n')).toContain('Receipt number 1');
    expect(r.queue.waitingCount()).toBe(0);
  });

  it('out of paper: the receipt waits (nothing lost); paper in: it prints by itself, once, in order', async () => {
    const r = await rig();
    r.sim.paper = 'out';
    expect((await r.service.poll()).state).toBe('paper-out');
    const first = await r.service.print([job(1)]);
    expect(first).toEqual({ state: 'waiting', copies: 1, why: 'out of paper' });
    const second = await r.service.print([job(2)]);
    expect(second.state).toBe('waiting');
    expect(r.sim.receipts()).toHaveLength(0);
    expect(r.queue.waitingCount()).toBe(2);
    expect(r.service.status().waiting).toBe(2);

    r.sim.paper = 'ok';
    // The watcher's next read sees it ready and prints what waits.
    await r.service.poll();
    expect(r.sim.receipts().map((x) => /Receipt number (\d)/.exec(x.text)?.[1])).toEqual(['1', '2']);
    expect(r.queue.waitingCount()).toBe(0);
    // Further reads print nothing again.
    await r.service.poll();
    await r.service.poll();
    expect(r.sim.receipts()).toHaveLength(2);
    expect(r.pushed.at(-1)).toMatchObject({ state: 'ready', waiting: 0 });
  });

  it('a printer switched off: offline, the receipt waits; switched on: it prints', async () => {
    const r = await rig();
    r.sim.silent = true;
    r.sim.dropConnections();
    const out = await r.service.print([job(7)]);
    expect(out.state).toBe('waiting');
    expect(r.service.status().state).toBe('offline');
    r.sim.silent = false;
    await r.service.poll();
    expect(r.sim.receipts().map((x) => x.text).join()).toContain('Receipt number 7');
  });

  it('the drawer kicks open through the printer; open past the store setting it is flagged and recorded once; shut, the flag goes', async () => {
    const r = await rig();
    expect(await r.service.kickDrawer()).toBeNull();
    // The status is asked after the kick on the same line: its answer comes once the kick is in.
    const open = await r.service.poll();
    expect(r.sim.kicks).toHaveLength(1);
    expect(open).toMatchObject({ drawer: 'open', drawerOpenSeconds: 0, drawerFlagged: false });
    r.clock.t += 61_000;
    expect(await r.service.poll()).toMatchObject({ drawer: 'open', drawerOpenSeconds: 61, drawerFlagged: true });
    r.clock.t += 60_000;
    expect(await r.service.poll()).toMatchObject({ drawerOpenSeconds: 121, drawerFlagged: true });
    const flagged = r.audit.list({ page: 1 }).rows.filter((e) => e.kind === 'drawer-left-open');
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({ userName: 'Casey' });
    r.sim.closeDrawer();
    expect(await r.service.poll()).toMatchObject({ drawer: 'closed', drawerOpenSeconds: null, drawerFlagged: false });
  });

  it('no printer registered: status none, and the drawer kick says so in words', async () => {
    const r = await rig();
    new PrinterRegistry(r.db).remove(new PrinterRegistry(r.db).list()[0]!.id);
    expect((await r.service.poll()).state).toBe('none');
    expect(await r.service.kickDrawer()).toMatch(/No receipt printer is registered/);
  });
});

describe('the receipt printer service over a serial line (socat pseudo-terminals)', () => {
  it('prints, and a test page prints with the ruler of its characters per line', async () => {
    const r = await rig('serial');
    expect(await r.service.print([job(3)])).toEqual({ state: 'printed', copies: 1 });
    const p = new PrinterRegistry(r.db).list()[0]!;
    const view = await r.service.testPrint(p);
    expect(view.state).toBe('ready');
    const text = r.sim.receipts().map((x) => x.text).join('\n');
    expect(text).toContain('Receipt number 3');
    expect(text).toContain('TEST PRINT');
    expect(text).toContain('Counter printer');
    expect(text).toContain('123456789012345678901234567890123456789012345678');
  });
});
