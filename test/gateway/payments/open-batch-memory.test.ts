/**
 * The payments module remembers each product transaction's open batch instead of reading it
 * again for every sale (batch-service.ts). What it remembers must never outlive the write that
 * made it: a batch created inside a write that is then undone is forgotten, and a settled batch
 * is never joined again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultModules } from '../../../electron/gateway/engine-modules';
import { startEngine, type RunningEngine } from '../../../electron/gateway/engine';
import type { PaymentsRuntime } from '../../../electron/gateway/payments/payments-module';

let engine: RunningEngine;
let dir: string;
let runtime: () => PaymentsRuntime;
let post: (path: string, body?: unknown) => Promise<{ status: number; body: Record<string, Record<string, unknown>> }>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ringup-open-batch-'));
  const modules = defaultModules();
  const payments = modules.find((m) => m.name === 'payments') as unknown as { runtime(): PaymentsRuntime };
  runtime = () => payments.runtime();
  engine = await startEngine({ dataDir: dir, port: 0, modules, schedulerIntervalMs: 0 });
  const c = engine.credentials;
  const headers = { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key, 'content-type': 'application/json' };
  post = async (path, body) => {
    const res = await fetch(`${c.base_url}${path}`, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, Record<string, unknown>> };
  };
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const sale = (amount: string) => post('/transactions', { transaction: { action: 'sale', payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', transaction_amount: amount } });
const batchRow = (id: unknown) => engine.db.prepare('SELECT id, is_open, batch_num FROM transaction_batches WHERE id = ?').get(id) as { id: string; is_open: number; batch_num: number } | undefined;

describe('the open batch the payments module remembers', () => {
  it('is forgotten when the write that created it is undone, and never joined once settled', async () => {
    const ptId = engine.credentials.cc_product_transaction_id as string;
    const r = runtime();
    // A write that opens the batch, then fails: its savepoint undoes the batch row.
    let opened: string | undefined;
    await expect(
      r.writer.submit(() => {
        opened = r.batches.openBatchFor(ptId, engine.credentials.location_id).id;
        throw new Error('refused after opening the batch');
      }),
    ).rejects.toThrow('refused after opening the batch');
    expect(opened).toBeDefined();
    expect(batchRow(opened)).toBeUndefined();
    // The next sale joins a batch that exists, not the undone one.
    const first = (await sale('10.00')).body.transaction as Record<string, unknown>;
    expect(first.transaction_batch_id).not.toBe(opened);
    expect(batchRow(first.transaction_batch_id)).toMatchObject({ is_open: 1 });
    const second = (await sale('11.00')).body.transaction as Record<string, unknown>;
    expect(second.transaction_batch_id).toBe(first.transaction_batch_id);
    // Settled, the batch is closed: the next sale opens the next one.
    expect((await post(`/transactionbatches/${String(first.transaction_batch_id)}/settle`)).status).toBe(200);
    const third = (await sale('12.00')).body.transaction as Record<string, unknown>;
    expect(third.transaction_batch_id).not.toBe(first.transaction_batch_id);
    const next = batchRow(third.transaction_batch_id);
    expect(next).toMatchObject({ is_open: 1, batch_num: (batchRow(first.transaction_batch_id)?.batch_num ?? 0) + 1 });
  });
});
