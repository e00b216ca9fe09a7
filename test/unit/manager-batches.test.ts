/**
 * The manager's batch handlers against the real embedded engine (real HTTP, real
 * SQLite): totals count approved money only (a 2.01 sale counts 1.00), a 6.30 sale makes
 * the first settle fail and the retry succeed, cashiers are refused, the CSV matches.
 */
import { describe, expect, it } from 'vitest';
import { BATCH_MESSAGES } from '../../electron/core/batches/batch-handlers';
import { BATCH_CSV_HEADER, batchCsv } from '../../electron/core/batches/batch-csv';
import { AUTH_ERRORS } from '../../electron/core/auth/users';
import { TooManyRecordsError } from '../../electron/client/gateway-client';
import { TOO_MANY_RECORDS, withGatewayFailure } from '../../electron/core/gateway/guarded-call';
import { ok } from '../../shared/result';
import { embeddedClient } from '../helpers/embedded-credentials';
import { useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-batches-');
const { call, signInAs } = h;
let ref = 0;
async function sell(subtotalCents: number, tipCents = 0, number = '4111111111111111') {
  return value(
    await call('sale:charge', { subtotalCents, taxCents: 0, tipCents, card: { number, expiry: '1230', cvv: '999', zip: '32606' }, clientRef: `batch-test-${ref++}` }),
  ).transaction;
}

describe('batches', () => {
  it('refuses signed-out users and cashiers', async () => {
    expect(await call('batches:list')).toEqual({ ok: false, error: { code: 'unauthenticated', message: AUTH_ERRORS.signedOut } });
    await signInAs('Casey', '0000');
    expect(await call('batches:list')).toEqual({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.managerOnly } });
    expect((await call('batches:settle', { batchId: 'x' })).ok).toBe(false);
  });

  it('totals the open batch by approved money, settles after a refused first try, keeps history and exports CSV', async () => {
    await signInAs('Morgan', '1234');
    expect(value(await call('batches:list')).open).toBeNull();
    const a = await sell(1000, 150); // $11.50 with a $1.50 tip
    await sell(201); // partial approval: $1.00 of $2.01
    await sell(630, 0, '5454545454545454'); // approved; makes the first settle fail
    await sell(500); // declined: not in the batch
    const v = await sell(700);
    value(await call('transactions:void', { id: v.id }));
    value(await call('transactions:refund', { id: a.id, amountCents: 300 }));

    const list = value(await call('batches:list'));
    expect(list.open?.state).toBe('open');
    const batchId = list.open!.id;
    const { totals } = value(await call('batches:summary', { batchId }));
    expect(totals.sales).toEqual({ count: 3, cents: 1150 + 100 + 630 });
    expect(totals.refunds).toEqual({ count: 1, cents: 300 });
    expect(totals.voids).toEqual({ count: 1, cents: 700 });
    expect(totals.netCents).toBe(1880 - 300);
    expect(totals.tipsCents).toBe(150);
    expect(totals.byBrand.map((b) => [b.label, b.sales.count, b.sales.cents])).toEqual([
      ['Visa', 2, 1250],
      ['Mastercard', 1, 630],
    ]);
    expect(totals.byEntryMode.map((b) => [b.label, b.sales.cents, b.refunds.cents])).toEqual([['Keyed', 1880, 300]]);

    const rows = value(await call('batches:rows', { batchId, page: 1 }));
    expect(rows.rows).toHaveLength(5);
    expect(rows.rows.find((r) => r.askedCents === 201)).toMatchObject({ approvedCents: 100, stateLabel: 'Part approved' });

    const first = value(await call('batches:settle', { batchId }));
    expect(first).toMatchObject({ settled: false, message: BATCH_MESSAGES.refused, batch: { state: 'failed' } });
    expect(value(await call('batches:list')).open?.id).toBe(batchId);
    const second = value(await call('batches:settle', { batchId }));
    expect(second.settled).toBe(true);
    expect(second.message).toBe(BATCH_MESSAGES.settled(second.batch.number, 4, '15.80'));
    // A second settle of a closed batch is refused by the engine with its own sentence.
    const again = await call('batches:settle', { batchId });
    expect(again.ok).toBe(false);

    const after = value(await call('batches:list'));
    expect(after.open).toBeNull();
    expect(after.history[0]).toMatchObject({ id: batchId, state: 'settled' });
    expect(after.history[0]!.fileName).toMatch(/\.csv$/);

    const csv = value(await call('batches:csv', { batchId }));
    const lines = csv.csv.trim().split('\r\n');
    expect(lines[0]).toBe(BATCH_CSV_HEADER.join(','));
    expect(lines).toHaveLength(6);
    expect(csv.csv).not.toMatch(/4111111111111111|5454545454545454/);
    expect(lines.some((l) => l.includes(',Part approved,') && l.includes(',1.00,2.01,'))).toBe(true);
    // The bookkeeper reads who rang each sale up by name, not the gateway's clerk_number (issue 21).
    expect(lines.slice(1).every((l) => l.endsWith(',Morgan'))).toBe(true);
  });

  it('two settles at once: one settles, the other is refused in words, nothing settles twice', async () => {
    await signInAs('Morgan', '1234');
    await sell(1500);
    const batchId = value(await call('batches:list')).open!.id;
    const both = await Promise.all([call('batches:settle', { batchId }), call('batches:settle', { batchId })]);
    const settled = both.filter((r) => r.ok && r.value.settled);
    const refused = both.filter((r) => !r.ok);
    expect(settled).toHaveLength(1);
    expect(refused).toHaveLength(1);
    if (!refused[0]!.ok) expect(refused[0]!.error.message).toBe('The batch is already settled.');
    expect(value(await call('batches:list')).history.filter((b) => b.id === batchId)).toHaveLength(1);
  });

  it('CSV cells cannot start a spreadsheet formula and quote commas', () => {
    const csv = batchCsv([
      { id: 't1', type_id: 20, status_id: 101, transaction_amount: '1.00', auth_amount: '1.00', last_four: '1111', account_type: 'visa', created_ts: 0, clerk_number: '=HYPERLINK("x")', auth_code: 'A,B' },
    ]);
    const line = csv.trim().split('\r\n')[1]!;
    expect(line).toContain(`"'=HYPERLINK(""x"")"`);
    expect(line).toContain('"A,B"');
  });

  it('a list longer than the totals may take is refused in words, never cut short into a wrong total', async () => {
    await signInAs('Morgan', '1234');
    for (const cents of [1100, 1200, 1300]) await sell(cents);
    const batchId = value(await call('batches:list')).open!.id;
    const client = embeddedClient(h.dir);
    expect(await client.listAllTransactions({ transaction_batch_id: batchId }, 3)).toHaveLength(3);
    // One more than the limit: an error, not the first two of three (the old behaviour returned a slice).
    await expect(client.listAllTransactions({ transaction_batch_id: batchId }, 2)).rejects.toBeInstanceOf(TooManyRecordsError);
    const answer = await withGatewayFailure(async () => ok(await client.listAllTransactions({ transaction_batch_id: batchId }, 2)));
    expect(answer).toEqual({ ok: false, error: { code: 'too_many_records', message: TOO_MANY_RECORDS(2) } });
    expect(TOO_MANY_RECORDS(200_000)).toContain('more than 200,000 transactions');
  });

  it('a small first page of rows, for the first rows to show at once', async () => {
    await signInAs('Morgan', '1234');
    await sell(1400);
    const batchId = value(await call('batches:list')).open!.id;
    const all = value(await call('batches:rows', { batchId, page: 1 }));
    const first = value(await call('batches:rows', { batchId, page: 1, pageSize: 2 }));
    expect(first.rows.map((r) => r.id)).toEqual(all.rows.slice(0, 2).map((r) => r.id));
    expect(first.pageCount).toBe(Math.ceil(all.rows.length / 2));
    expect((await call('batches:rows', { batchId, page: 1, pageSize: 5001 })).ok).toBe(false);
  });
});
