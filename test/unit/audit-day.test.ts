/**
 * Issue 22, point 2: a manager's audit of a day. Through the real core (its own data folder,
 * the embedded engine, the one dispatcher), a counter's day: the manager sets the store up (a
 * settings change, a user added, a key backup, a catalogue import, a terminal saved, a saved
 * card added and removed, a recurring added); the cashier rings up a keyed sale, a cart paid in
 * cash, a cart paid by card, and a cart whose discount above the limit a manager approved with
 * their PIN; the manager gives cash back on a returned line, refunds, voids, settles, reads the
 * X and closes the day with a Z. Then `audit:list` shows each with its kind, amount and who
 * (and who approved), and the filter by each kind finds it. Before issue 22 the cash sale, the
 * cash given back, the discount, settle, X, Z, the device, the catalogue, the saved cards and the
 * recurring were missing: nothing forced those channels to be audited.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry, AuditKind } from '../../shared/ipc/contract';
import { useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-audit-day-');
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };

/** A date `days` after today where the engine keeps its calendar (America/New_York), far enough ahead for any hour of the day. */
const daysAhead = (days: number) => {
  const ny = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
  const t = new Date(`${ny}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
};

async function wholeLog(): Promise<AuditEntry[]> {
  const rows: AuditEntry[] = [];
  for (let page = 1; ; page++) {
    const p = value(await h.call('audit:list', { page }));
    rows.push(...p.rows);
    if (page >= p.pageCount) return rows;
  }
}

describe("a manager's audit of a day", () => {
  it('shows every money move, override, close and change with its kind, amount and who', async () => {
    const userId = async (name: string) => value(await h.call('auth:users')).users.find((u) => u.name === name)!.id;
    const morganId = await userId('Morgan');

    // ── The manager sets the store up.
    await h.signInAs('Morgan', '1234');
    const settings = value(await h.call('settings:get'));
    value(await h.call('settings:update', { ...settings, storeName: 'Audit Day Cafe' }));
    value(await h.call('users:add', { name: 'Riley', role: 'cashier', pin: '5555' }));
    const backup = value(await h.call('keys:export', { passphrase: 'a passphrase long enough' }));
    value(await h.call('catalogue:import-csv', { csv: 'name,price,sku\nCoffee,3.50,COF\nBeans,50.00,BEA\n' }));
    const items = value(await h.call('catalogue:list', { includeArchived: false, search: '' }));
    const coffee = items.find((i) => i.sku === 'COF')!;
    const beans = items.find((i) => i.sku === 'BEA')!;
    const { lastRegistrationTs: _ts, id: _id, ...demo } = value(await h.call('devices:installer-data')).terminals[0]!;
    value(await h.call('devices:terminal-save', { ...demo, title: 'Front counter', serialNumber: 'SN-AUDIT-1', address: { kind: 'tcp', host: '127.0.0.1', port: 10009 } }));
    const pat = value(await h.call('vault:add-contact', { firstName: 'Pat', lastName: 'Doe', email: '' }));
    const kept = value(await h.call('vault:add-card', { contactId: pat.id, holderName: 'Pat Doe', number: card.number, expiry: '1239' }));
    const dropped = value(await h.call('vault:add-card', { contactId: pat.id, holderName: 'Pat Doe', number: '5454545454545454', expiry: '1238' }));
    value(await h.call('vault:delete', { id: dropped.id }));
    const plan = value(await h.call('recurring:create', { methodId: kept.id, amountCents: 2_500, interval: 1, intervalType: 'm', startDate: daysAhead(10), installments: null, notificationDays: 0, description: 'Beans club' }));

    // ── The cashier's day.
    await h.signInAs('Casey', '0000');
    const keyed = value(await h.call('sale:charge', { subtotalCents: 1_234, taxCents: 0, tipCents: 0, card, clientRef: 'audit-day-keyed' })).transaction;
    const toVoid = value(await h.call('sale:charge', { subtotalCents: 1_000, taxCents: 0, tipCents: 0, card, clientRef: 'audit-day-void' })).transaction;
    // A cart paid in cash.
    value(await h.call('cart:add-item', { itemId: coffee.id, quantity: 2 }));
    const cashCart = value(await h.call('cart:pay-cash', { tenderedCents: 2_000 }));
    expect(cashCart.status).toBe('paid');
    // A cart paid by card.
    value(await h.call('cart:add-open', { name: 'Open amount', amountCents: 1_800, taxCategory: 'exempt' }));
    const cardCart = value(await h.call('cart:pay-card', { card, clientRef: 'audit-day-cart-card' }));
    expect(cardCart.status).toBe('paid');
    const cartCardId = cardCart.tenders.find((t) => t.kind === 'card')!.transactionId!;
    // A discount above the store's limit (20 %), approved with the manager's PIN at the cashier's counter.
    value(await h.call('cart:add-item', { itemId: beans.id, quantity: 1 }));
    const discounted = value(await h.call('cart:set-cart-discount', { discount: { kind: 'percent', basisPoints: 5_000 }, approval: { managerId: morganId, pin: '1234' } }));
    expect(discounted.discountApprovedBy).toBe('Morgan');
    value(await h.call('cart:pay-cash', { tenderedCents: discounted.totals.totalCents }));

    // ── The manager: cash back on a returned line, a refund, a void, settle, X and Z.
    await h.signInAs('Morgan', '1234');
    const returned = value(await h.call('cart:refund-lines', { cartId: cashCart.id, lineIds: [cashCart.lines[0]!.id] }));
    expect(returned.cashBackCents).toBeGreaterThan(0);
    const refund = value(await h.call('transactions:refund', { id: keyed.id, amountCents: 234 }));
    value(await h.call('transactions:void', { id: toVoid.id }));
    const open = value(await h.call('batches:list')).open!;
    const settled = value(await h.call('batches:settle', { batchId: open.id }));
    const x = value(await h.call('reports:x'));
    const z = value(await h.call('reports:z'));

    // ── The audit of the day.
    const log = await wholeLog();
    const find = (kind: AuditKind, where: (r: AuditEntry) => boolean = () => true) => log.find((r) => r.kind === kind && where(r));
    const money = (r: AuditEntry | undefined) => r && { who: r.userName, amount: r.amountCents, tx: r.transactionId };

    expect(money(find('sale', (r) => r.transactionId === keyed.id))).toEqual({ who: 'Casey', amount: 1_234, tx: keyed.id });
    expect(money(find('cash-sale', (r) => r.amountCents === cashCart.totals.totalCents))).toEqual({ who: 'Casey', amount: cashCart.totals.totalCents, tx: null });
    expect(find('cash-sale', (r) => r.amountCents === cashCart.totals.totalCents)?.detail).toContain('$20.00 handed over');
    expect(money(find('sale', (r) => r.transactionId === cartCardId))).toEqual({ who: 'Casey', amount: 1_800, tx: cartCardId });
    expect(find('discount', (r) => r.detail.includes('whole sale: 50 % off'))).toMatchObject({ userName: 'Casey', amountCents: discounted.totals.cartDiscountCents, detail: expect.stringContaining('approved by Morgan with their PIN') as unknown });
    expect(money(find('cash-refund'))).toEqual({ who: 'Morgan', amount: returned.cashBackCents, tx: null });
    expect(money(find('refund', (r) => r.transactionId === refund.refund.id))).toEqual({ who: 'Morgan', amount: 234, tx: refund.refund.id });
    expect(money(find('void', (r) => r.transactionId === toVoid.id))).toEqual({ who: 'Morgan', amount: 1_000, tx: toVoid.id });
    expect(find('settle')).toMatchObject({ userName: 'Morgan', detail: `batch #${settled.batch.number}: ${settled.message}` });
    expect(find('x-report')).toMatchObject({ userName: 'Morgan', amountCents: x.allTenders?.netCents ?? x.totals.netCents });
    expect(find('z-report')).toMatchObject({ userName: 'Morgan', amountCents: z.allTenders?.netCents ?? z.totals.netCents, detail: expect.stringContaining(`Z #${z.number}`) as unknown });
    expect(find('device-change')).toMatchObject({ userName: 'Morgan', detail: expect.stringContaining('terminal "Front counter" (serial SN-AUDIT-1) added') as unknown });
    expect(find('catalogue-import')).toMatchObject({ userName: 'Morgan', detail: 'imported 2 rows: 2 new, 0 updated' });
    expect(find('saved-card', (r) => r.detail.startsWith('saved Visa'))).toMatchObject({ userName: 'Morgan' });
    expect(find('saved-card', (r) => r.detail === `deleted saved card or account ${dropped.id}`)).toMatchObject({ userName: 'Morgan' });
    expect(find('recurring')).toMatchObject({ userName: 'Morgan', amountCents: 2_500, detail: expect.stringContaining(plan.customerName) as unknown });
    expect(find('settings-change', (r) => r.detail.includes('"Audit Day Cafe"'))).toMatchObject({ userName: 'Morgan' });
    expect(find('user-change')).toMatchObject({ userName: 'Morgan', detail: 'added Riley as cashier' });
    expect(find('keys-backup')).toMatchObject({ userName: 'Morgan', detail: `backed up to ${backup.fileName}` });
    expect(find('sign-in', (r) => r.userName === 'Casey')).toBeTruthy();

    // The manager's filter finds each kind of the day by itself.
    for (const kind of ['sale', 'cash-sale', 'cash-refund', 'discount', 'refund', 'void', 'settle', 'x-report', 'z-report', 'device-change', 'catalogue-import', 'saved-card', 'recurring', 'settings-change', 'user-change', 'keys-backup', 'sign-in'] as const) {
      const page = value(await h.call('audit:list', { page: 1, kind }));
      expect(page.total, kind).toBeGreaterThan(0);
      expect(page.rows.every((r) => r.kind === kind), kind).toBe(true);
    }
    // No card number in the log.
    expect(JSON.stringify(log)).not.toMatch(/4111111111111111|5454545454545454/);
  });
});
