/**
 * Counter trust, the people side: sessions per window (caller), the idle lock, the
 * append-only audit log and the store settings — through the real dispatcher, a real
 * core, a real SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HandlerResults, PosUser, StoreSettings } from '../../shared/ipc/contract';
import { AUDIT_PAGE_SIZE, DEFAULT_STORE_SETTINGS } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';
import { startCore, type Core } from '../../electron/core/app-core';
import { AuditLog } from '../../electron/core/audit/audit-log';
import { openPosDatabase, setSetting, type PosDatabase } from '../../electron/core/platform/pos-database';
import { STORE_SETTINGS_KEY, StoreSettingsStore } from '../../electron/core/settings/store-settings';
import { AUTH_ERRORS, UserDirectory } from '../../electron/core/auth/users';
import { runAsCaller } from '../../electron/ipc/caller-context';
import { testPins } from '../helpers/test-pins';
import { createDispatcher, IPC_ERRORS, type Dispatch } from '../../electron/ipc/dispatcher';

const ORIGIN = 'http://127.0.0.1:1';
/** One PIN pepper for the file: a directory opened again on the same database checks the same PINs. */
const pins = testPins();

describe('sessions per window, idle lock and audit (UserDirectory on its own)', () => {
  let dir: string;
  let db: PosDatabase;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ringup-people-'));
    db = openPosDatabase(dir);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs each window in on its own: one window signing in or out leaves the other alone', async () => {
    const users = new UserDirectory(db, { pins });
    const [morgan, casey] = users.list();
    expect((await users.signIn(casey!.id, '0000', 'ws-1')).ok).toBe(true);
    expect(users.current('ws-1')?.user.name).toBe('Casey');
    expect(users.current('ws-2')).toBeNull();
    expect(runAsCaller('ws-2', () => users.require())).toEqual({ ok: false, error: { code: 'unauthenticated', message: AUTH_ERRORS.signedOut } });
    expect((await users.signIn(morgan!.id, '1234', 'ws-2')).ok).toBe(true);
    expect(runAsCaller('ws-1', () => users.require('manager'))).toMatchObject({ ok: false, error: { message: AUTH_ERRORS.managerOnly } });
    expect(runAsCaller('ws-2', () => users.require('manager')).ok).toBe(true);
    runAsCaller('ws-2', () => users.signOut());
    expect(users.current('ws-2')).toBeNull();
    expect(users.current('ws-1')?.user.name).toBe('Casey');
    users.disconnect('ws-1');
    expect(users.current('ws-1')).toBeNull();
  });

  it('locks a window after the idle time without activity, tells it why, and activity starts the clock over', async () => {
    let now = 1_000_000;
    const locks: string[] = [];
    const audit = new AuditLog(db, () => now);
    const users = new UserDirectory(db, { pins, now: () => now, idleLockMs: () => 60_000, audit, onLocked: (c, l) => locks.push(`${c}:${l.reason}:${l.idleSeconds}`) });
    const [morgan] = users.list();
    await users.signIn(morgan!.id, '1234', 'ws-1');
    now += 59_000;
    runAsCaller('ws-1', () => users.touch());
    now += 59_000;
    users.sweep();
    expect(users.current('ws-1')?.user.name).toBe('Morgan'); // 118 s signed in, never 60 s idle
    expect(runAsCaller('ws-1', () => users.require()).ok).toBe(true); // a protected action is activity too
    now += 60_000;
    expect(locks).toEqual([]);
    expect(runAsCaller('ws-1', () => users.require())).toEqual({ ok: false, error: { code: 'unauthenticated', message: AUTH_ERRORS.idleLocked } });
    expect(locks).toEqual(['ws-1:idle:60']);
    expect(runAsCaller('ws-1', () => users.require())).toMatchObject({ ok: false, error: { message: AUTH_ERRORS.signedOut } });
    const kinds = audit.list({ page: 1 }).rows.map((r) => r.kind);
    expect(kinds).toEqual(['idle-lock', 'sign-in']);
  });

  it('the idle timer itself locks a window nobody touches (real timers, a short idle time)', async () => {
    const locked = new Promise<string>((resolve) => {
      const users = new UserDirectory(db, { pins, idleLockMs: () => 200, timers: true, onLocked: (c) => resolve(c) });
      void users.signIn(users.list()[0]!.id, '1234', 'wc-3');
    });
    expect(await locked).toBe('wc-3');
  });

  it('records sign-ins, wrong PINs, the lockout, PIN changes and sign-outs with who and when', async () => {
    let now = 5_000_000;
    const audit = new AuditLog(db, () => now++);
    const users = new UserDirectory(db, { pins, now: () => now, audit });
    const [morgan, casey] = users.list();
    for (let i = 0; i < 5; i++) await users.signIn(morgan!.id, '9999', 'ws-1');
    await users.signIn(casey!.id, '0000', 'ws-1');
    await runAsCaller('ws-1', () => users.changePin('0000', '2468'));
    runAsCaller('ws-1', () => users.signOut());
    const rows = audit.list({ page: 1 }).rows;
    expect(rows.map((r) => [r.kind, r.userName])).toEqual([
      ['sign-out', 'Casey'],
      ['pin-change', 'Casey'],
      ['sign-in', 'Casey'],
      ['lockout', 'Morgan'],
      ['pin-failed', 'Morgan'],
      ['pin-failed', 'Morgan'],
      ['pin-failed', 'Morgan'],
      ['pin-failed', 'Morgan'],
      ['pin-failed', 'Morgan'],
    ]);
    expect(rows[4]!.detail).toBe('5 of 5 wrong PINs in a row');
    expect(rows[0]!.ts).toBeGreaterThan(rows[8]!.ts);
    expect(JSON.stringify(rows)).not.toMatch(/9999|2468/); // no PIN ever lands in the log
  });

  it('is append-only: SQLite refuses UPDATE and DELETE on the audit table', async () => {
    const audit = new AuditLog(db);
    audit.record({ kind: 'sale', user: { id: 'u1', name: 'Casey' }, amountCents: 1000, transactionId: 't1', detail: 'approved' });
    expect(() => db.prepare("UPDATE audit_log SET amount_cents = 1 WHERE transaction_id = 't1'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(() => db.exec('UPDATE audit_log SET detail = NULL')).toThrow(/append-only/);
    expect(audit.list({ page: 1 }).rows).toMatchObject([{ amountCents: 1000, transactionId: 't1', detail: 'approved' }]);
  });

  it('pages newest first and filters by user, kind and time range', async () => {
    let now = 1_000;
    const audit = new AuditLog(db, () => now);
    for (let i = 0; i < AUDIT_PAGE_SIZE + 5; i++) {
      now = 1_000 + i;
      audit.record({ kind: i % 2 ? 'sale' : 'sign-in', user: i % 3 ? { id: 'a', name: 'A' } : { id: 'b', name: 'B' }, amountCents: i });
    }
    const p1 = audit.list({ page: 1 });
    expect(p1.total).toBe(AUDIT_PAGE_SIZE + 5);
    expect(p1.pageCount).toBe(2);
    expect(p1.rows[0]!.amountCents).toBe(AUDIT_PAGE_SIZE + 4);
    expect(audit.list({ page: 2 }).rows).toHaveLength(5);
    expect(audit.list({ page: 9 }).page).toBe(2); // past the end: the last page
    expect(audit.list({ page: 1, kind: 'sale', userId: 'b' }).rows.every((r) => r.kind === 'sale' && r.userId === 'b')).toBe(true);
    expect(audit.list({ page: 1, from: 1_010, to: 1_020 }).rows.map((r) => r.amountCents)).toEqual([19, 18, 17, 16, 15, 14, 13, 12, 11, 10]);
  });
});

describe('store settings', () => {
  let dir: string;
  let db: PosDatabase;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ringup-settings-'));
    db = openPosDatabase(dir);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('start from the defaults, save, and survive a reopen', async () => {
    const s = new StoreSettingsStore(db);
    expect(s.get()).toEqual(DEFAULT_STORE_SETTINGS);
    const changed = s.save({ ...DEFAULT_STORE_SETTINGS, storeName: 'Corner Shop', taxRateBasisPoints: 900 });
    expect(changed).toEqual(['storeName', 'taxRateBasisPoints']);
    expect(new StoreSettingsStore(db).get()).toMatchObject({ storeName: 'Corner Shop', taxRateBasisPoints: 900 });
  });

  it('a stored value that no longer passes the schema falls back to the default for that field only', async () => {
    setSetting(db, STORE_SETTINGS_KEY, JSON.stringify({ storeName: 'Kept', taxRateBasisPoints: -5, idleLockMinutes: 'soon', unknown: 1 }));
    expect(new StoreSettingsStore(db).get()).toEqual({ ...DEFAULT_STORE_SETTINGS, storeName: 'Kept' });
    setSetting(db, STORE_SETTINGS_KEY, '{not json');
    expect(new StoreSettingsStore(db).get()).toEqual(DEFAULT_STORE_SETTINGS);
  });
});

describe('the core over the dispatcher: callers, settings, audit', () => {
  let dir: string;
  let core: Core;
  let dispatch: Dispatch;
  let users: PosUser[];
  const pushed: Array<[string, unknown, string | undefined]> = [];

  async function call<C extends keyof HandlerResults>(callerId: string, channel: C, arg?: unknown): Promise<Result<HandlerResults[C]>> {
    return (await dispatch(channel, { url: `${ORIGIN}/`, isMainFrame: true, callerId }, arg)) as Result<HandlerResults[C]>;
  }
  async function signIn(callerId: string, name: string, pin: string) {
    const r = await call(callerId, 'auth:sign-in', { userId: users.find((u) => u.name === name)!.id, pin });
    expect(r.ok).toBe(true);
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ringup-people-core-'));
    core = await startCore({ dataDir: dir, shell: 'node-host', healthIntervalMs: 0 });
    core.events.subscribe((e, p, to) => pushed.push([e, p, to]));
    dispatch = createDispatcher(core.handlers, { allowedOrigins: [ORIGIN] });
    const r = await call('ws-0', 'auth:users');
    if (!r.ok) throw new Error(r.error.message);
    users = r.value.users;
  });
  afterAll(async () => {
    await core?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a new connection starts signed out even while another is signed in; the session event goes to its own window only', async () => {
    pushed.length = 0;
    await signIn('ws-1', 'Casey', '0000');
    expect((await call('ws-1', 'auth:session')).ok && (await call('ws-1', 'auth:session'))).toMatchObject({ value: { user: { name: 'Casey' } } });
    expect(await call('ws-2', 'auth:session')).toEqual({ ok: true, value: null });
    expect(await call('ws-2', 'transactions:today', { page: 1 })).toMatchObject({ ok: false, error: { message: AUTH_ERRORS.signedOut } });
    expect(pushed.filter(([e]) => e === 'auth:session').map(([, , to]) => to)).toEqual(['ws-1']);
    core.disconnect('ws-1');
    expect(await call('ws-1', 'auth:session')).toEqual({ ok: true, value: null });
  });

  it('refund and void check the calling window’s session: a cashier window cannot borrow a manager window', async () => {
    await signIn('ws-3', 'Morgan', '1234');
    await signIn('ws-4', 'Casey', '0000');
    // The manager signed in at another window approves nothing here: the cashier is asked for a manager's PIN.
    const r = await call('ws-4', 'transactions:refund', { id: 'tx-1', amountCents: 100 });
    expect(r).toMatchObject({ ok: false, error: { code: 'approval_needed' } });
    const v = await call('ws-4', 'transactions:void', { id: 'tx-1' });
    expect(v).toMatchObject({ ok: false, error: { code: 'approval_needed' } });
  });

  it('settings: any signed-in user reads, only a manager saves; bad values are refused field by field; a change is audited and pushed to every window', async () => {
    await signIn('ws-5', 'Casey', '0000');
    await signIn('ws-6', 'Morgan', '1234');
    expect(await call('ws-7', 'settings:get')).toMatchObject({ ok: false, error: { code: 'unauthenticated' } });
    expect(await call('ws-5', 'settings:get')).toEqual({ ok: true, value: core.settings() });
    const next: StoreSettings = { ...core.settings(), storeName: 'Corner Shop', taxOnByDefault: true, tipPercents: [10, 15, 25] };
    expect(await call('ws-5', 'settings:update', next)).toMatchObject({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.managerOnly } });
    const bad = await call('ws-6', 'settings:update', { ...next, storeName: ' ', hardCapCents: 50, confirmAboveCents: 100, tipPercents: [10] });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request', message: IPC_ERRORS.badArgument } });
    expect(!bad.ok && bad.error.fields).toMatchObject({
      storeName: ['Enter the store name.'],
      tipPercents: ['Give exactly three tip percents.'],
    });
    expect(core.settings().storeName).toBe(DEFAULT_STORE_SETTINGS.storeName);
    pushed.length = 0;
    const saved = await call('ws-6', 'settings:update', next);
    expect(saved).toEqual({ ok: true, value: next });
    expect(core.settings()).toEqual(next);
    expect(pushed.filter(([event]) => event !== 'display:state')).toEqual([['settings:changed', next, undefined]]);
    // The customer display follows the store's new name (issue 23, point 4).
    expect(pushed).toContainEqual(['display:state', expect.objectContaining({ phase: 'idle', storeName: 'Corner Shop' }), undefined]);
    const log = await call('ws-6', 'audit:list', { page: 1, kind: 'settings-change' });
    expect(log.ok && log.value.rows[0]).toMatchObject({ userName: 'Morgan', detail: expect.stringContaining('storeName: "Ringup Store" → "Corner Shop"') });
  });

  it('records each sale, refund and void with the window’s user, the amount and the transaction id; a refused call is not recorded', async () => {
    await signIn('ws-10', 'Casey', '0000');
    await signIn('ws-11', 'Morgan', '1234');
    const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
    const sale = await call('ws-10', 'sale:charge', { subtotalCents: 2450, taxCents: 0, tipCents: 0, card, clientRef: 'people-audit-1' });
    if (!sale.ok) throw new Error(sale.error.message);
    const saleId = sale.value.transaction.id;
    expect((await call('ws-10', 'transactions:refund', { id: saleId, amountCents: 100 })).ok).toBe(false); // cashier: refused
    const refund = await call('ws-11', 'transactions:refund', { id: saleId, amountCents: 450 });
    if (!refund.ok) throw new Error(refund.error.message);
    const sale2 = await call('ws-10', 'sale:charge', { subtotalCents: 1000, taxCents: 0, tipCents: 0, card, clientRef: 'people-audit-2' });
    if (!sale2.ok) throw new Error(sale2.error.message);
    const voided = await call('ws-11', 'transactions:void', { id: sale2.value.transaction.id });
    if (!voided.ok) throw new Error(voided.error.message);
    const log = await call('ws-11', 'audit:list', { page: 1 });
    if (!log.ok) throw new Error(log.error.message);
    const money = log.value.rows.filter((r) => ['sale', 'refund', 'void'].includes(r.kind));
    expect(money.slice(0, 4).map((r) => [r.kind, r.userName, r.amountCents, r.transactionId])).toEqual([
      ['void', 'Morgan', 1000, sale2.value.transaction.id],
      ['sale', 'Casey', 1000, sale2.value.transaction.id],
      ['refund', 'Morgan', 450, refund.value.refund.id],
      ['sale', 'Casey', 2450, saleId],
    ]);
    expect(money[2]!.detail).toContain(saleId);
    expect(JSON.stringify(log.value)).not.toContain('4111111111111111');
  });

  it('the audit log is for managers only, in the core as well as on screen', async () => {
    await signIn('ws-8', 'Casey', '0000');
    expect(await call('ws-8', 'audit:list', { page: 1 })).toMatchObject({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.managerOnly } });
    expect(await call('ws-9', 'audit:list', { page: 1 })).toMatchObject({ ok: false, error: { code: 'unauthenticated' } });
    expect(await call('ws-6', 'audit:list', { page: 1, from: 10, to: 5 })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });
});
