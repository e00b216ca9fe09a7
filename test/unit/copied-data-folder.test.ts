/**
 * Issue 20, point 8: a copied data folder is not a register.
 *
 * The copy is made as a person would (`cp -a ~/.config/Ringup /tmp/copy`): real files, real
 * SQLite, on the same computer and the same user, so the node host's keys folder is the
 * same one (same `keys-id`) and opens every key. The original has a sale, a saved card and a
 * sale waiting in its offline queue. A core started on the copy may sign in, but every money
 * channel answers the copy's sentence and nothing reaches a gateway: the engines' records
 * (read from their SQLite files) and the copy's offline queue are unchanged. The original
 * keeps selling, also while the copy runs and after it was renamed; the proper move — key
 * backup on the old register, restore on a fresh one — ends with a register that sells.
 */
import { cpSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openNodeHostSecretStore } from '../../electron/core/keys/node-host-keys';
import { OfflineQueue, OFFLINE_QUEUE_KEY_SECRET } from '../../electron/core/queue/offline-queue';
import { offlineRulesOf } from '../../electron/core/queue/offline-sales';
import { openPosDatabase } from '../../electron/core/platform/pos-database';
import { REGISTER_COPY_MESSAGE } from '../../electron/core/queue/register-binding';
import { REGISTER_COPY_CHANNELS } from '../../electron/ipc/channel-rules';
import type { Channel } from '../../shared/ipc/contract';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';
import { openCore, readEngineDatabase, value, type OpenCore } from '../helpers/core-harness';
import { tempDirs } from '../helpers/temp-dirs';

const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
const { newDir, keep } = tempDirs();
const open: OpenCore[] = [];
afterAll(async () => {
  for (const c of open) await c.core.close().catch(() => undefined);
});

async function counter(dataDir: string): Promise<OpenCore> {
  const c = await openCore(dataDir);
  open.push(c);
  await c.signInAs('Morgan', '1234');
  return c;
}
async function close(c: OpenCore): Promise<void> {
  open.splice(open.indexOf(c), 1);
  await c.core.close();
}

/** Every transaction the embedded engine of this data folder holds, by id and status (from its SQLite file). */
const engineRecords = (dataDir: string) =>
  readEngineDatabase(dataDir, (db) => db.prepare('SELECT id, status_id, doc FROM transactions ORDER BY id').all()) as Array<{ id: string; status_id: number; doc: string }>;

const pendingOffline = (dataDir: string) => {
  const db = openPosDatabase(dataDir);
  try {
    return (db.prepare(`SELECT client_ref FROM offline_queue WHERE state = 'pending'`).all() as Array<{ client_ref: string }>).map((r) => r.client_ref);
  } finally {
    db.close();
  }
};

describe('a copied data folder', () => {
  it('refuses every money channel in words, sends nothing to a gateway, and the original keeps selling', async () => {
    const original = newDir('ringup-original-');
    let a = await counter(original);
    const sale = value(await a.call('sale:charge', { subtotalCents: 1_234, taxCents: 0, tipCents: 0, card, clientRef: 'copy-orig-sale' }));
    expect(sale.approved).toBe(true);
    const pat = value(await a.call('vault:add-contact', { firstName: 'Pat', lastName: 'Doe', email: '' }));
    const saved = value(await a.call('vault:add-card', { contactId: pat.id, holderName: 'Pat Doe', number: card.number, expiry: '1230' }));
    await close(a);

    // A card sale approved offline, shown as approved (acknowledged), waiting to be forwarded (as the queue stores one while the gateway is away).
    const doc = JSON.parse(engineRecords(original).find((t) => t.id === sale.transaction.id)!.doc) as { location_id: string; product_transaction_id: string };
    const db = openPosDatabase(original);
    try {
      const key = (await openNodeHostSecretStore(original).get(OFFLINE_QUEUE_KEY_SECRET))!;
      const q = new OfflineQueue(db, key);
      const queued = q.enqueue(
        {
          clientRef: 'copy-offline-1',
          amountCents: 900,
          taxCents: 0,
          tipCents: 0,
          card,
          clerk: { id: 'u-morgan', name: 'Morgan', number: null, role: 'manager' },
          locationId: doc.location_id,
          productTransactionId: doc.product_transaction_id,
          collectsRestOf: null,
          keyed: true,
        },
        { ...offlineRulesOf(DEFAULT_STORE_SETTINGS), offlineAllowKeyed: true },
      );
      expect(queued.ok && q.acknowledge('copy-offline-1')?.acknowledged).toBe(true);
    } finally {
      db.close();
    }

    // `cp -a`: the whole folder, modes and times kept, beside the original on the same computer.
    const copy = join(newDir('ringup-copy-parent-'), 'Ringup');
    cpSync(original, copy, { recursive: true, preserveTimestamps: true });
    const recordsBefore = engineRecords(copy);
    const originalBefore = engineRecords(original);

    const b = await counter(copy);
    const refusals = {
      'sale:charge': await b.call('sale:charge', { subtotalCents: 1_000, taxCents: 0, tipCents: 0, card, clientRef: 'copy-sale' }),
      'transactions:refund': await b.call('transactions:refund', { id: sale.transaction.id, amountCents: 234 }),
      'transactions:void': await b.call('transactions:void', { id: sale.transaction.id }),
      'vault:charge': await b.call('vault:charge', { id: saved.id, subtotalCents: 700, taxCents: 0, tipCents: 0, clientRef: 'copy-vault' }),
      'cart:pay-card': await (async () => {
        await b.call('cart:add-open', { amountCents: 1_000 });
        return b.call('cart:pay-card', { card, clientRef: 'copy-cart' });
      })(),
      'queue:forward-now': await b.call('queue:forward-now'),
    };
    const refused = { ok: false, error: { code: 'register_copy', message: REGISTER_COPY_MESSAGE } };
    expect(Object.fromEntries(Object.entries(refusals).map(([channel, r]) => [channel, r.ok ? 'done' : r.error.code]))).toEqual(Object.fromEntries(Object.keys(refusals).map((c) => [c, 'register_copy'])));
    for (const [channel, r] of Object.entries(refusals)) expect(r, channel).toEqual(refused);
    // Every other channel too, before its handler runs (terminal, check, recurring, pay links, a saved gateway, a key restore …).
    const closed = (Object.keys(b.core.handlers) as Channel[]).filter((c) => !REGISTER_COPY_CHANNELS.has(c));
    expect(closed).toEqual(expect.arrayContaining(['devices:terminal-sale', 'devices:check-pay', 'cart:pay-saved', 'cart:pay-terminal', 'sale:void-partial', 'recurring:create', 'recurring:act', 'batches:settle', 'keys:restore', 'transactions:search']));
    for (const c of closed) expect(await (b.core.handlers[c] as (a: unknown) => Promise<unknown>)({}), c).toEqual(refused);
    expect(b.core.status().registerCopy).toBe(REGISTER_COPY_MESSAGE);
    // The sentence says what happened and how to move a register properly.
    expect(REGISTER_COPY_MESSAGE).toMatch(/copy/);
    expect(REGISTER_COPY_MESSAGE).toMatch(/key backup/i);

    // The original starts (again) while the copy runs, and sells: the copy took nothing from it.
    a = await counter(original);
    const again = value(await a.call('sale:charge', { subtotalCents: 2_500, taxCents: 0, tipCents: 0, card, clientRef: 'copy-orig-2' }));
    expect(again.approved, again.message).toBe(true);
    await close(a);
    // Closing waits for any forwarding run: whatever the copy could have sent has been sent by now.
    await close(b);

    expect(engineRecords(copy)).toEqual(recordsBefore);
    expect(pendingOffline(copy)).toEqual(['copy-offline-1']);
    // The original's engine gained its own second sale and its queued sale, forwarded by the original itself (once), nothing else.
    const gained = engineRecords(original).filter((t) => !originalBefore.some((o) => o.id === t.id));
    // (The keyed sale's transaction_api_id is the core's own reference, not the screen's clientRef: issue 20, point 2.)
    expect(gained).toHaveLength(2);
    expect(gained.map((t) => t.id)).toContain(again.transaction.id);
    expect(gained.map((t) => (JSON.parse(t.doc) as { transaction_api_id: string }).transaction_api_id)).toContain('copy-offline-1');
    expect(pendingOffline(original)).toEqual([]);

    // A restarted copy is still a copy; the original, renamed where it is (same folder), still sells.
    const b2 = await counter(copy);
    expect((await b2.call('sale:charge', { subtotalCents: 500, taxCents: 0, tipCents: 0, card, clientRef: 'copy-sale-2' })).ok).toBe(false);
    await close(b2);
    const renamed = `${original}-renamed`;
    renameSync(original, renamed);
    keep(renamed);
    const a2 = await counter(renamed);
    expect(a2.core.status().registerCopy).toBeUndefined();
    expect(value(await a2.call('sale:charge', { subtotalCents: 1_300, taxCents: 0, tipCents: 0, card, clientRef: 'copy-orig-3' })).approved).toBe(true);
    await close(a2);
  });

  it('a register moved properly (key backup on the old one, restore on a fresh folder) sells', async () => {
    const oldDir = newDir('ringup-move-old-');
    const old = await counter(oldDir);
    const pat = value(await old.call('vault:add-contact', { firstName: 'Pat', lastName: 'Move', email: '' }));
    const saved = value(await old.call('vault:add-card', { contactId: pat.id, holderName: 'Pat Move', number: card.number, expiry: '1230' }));
    const backup = value(await old.call('keys:export', { passphrase: 'moving day 2026 register' }));
    await close(old);

    // As the README says: a fresh data folder, the old `gateway/` and the backup file copied in, start, restore, start again.
    const newRegister = newDir('ringup-move-new-');
    cpSync(join(oldDir, 'gateway'), join(newRegister, 'gateway'), { recursive: true });
    cpSync(join(oldDir, 'backups'), join(newRegister, 'backups'), { recursive: true });
    const before = await counter(newRegister);
    expect(before.core.status().registerCopy).toBeUndefined();
    value(await before.call('keys:restore', { fileName: backup.fileName, passphrase: 'moving day 2026 register' }));
    await close(before);

    const after = await counter(newRegister);
    expect(after.core.status().registerCopy).toBeUndefined();
    expect(value(await after.call('sale:charge', { subtotalCents: 1_500, taxCents: 0, tipCents: 0, card, clientRef: 'moved-1' })).approved).toBe(true);
    expect(value(await after.call('vault:charge', { id: saved.id, subtotalCents: 700, taxCents: 0, tipCents: 0, clientRef: 'moved-2' })).approved).toBe(true);
    await close(after);
  });
});
