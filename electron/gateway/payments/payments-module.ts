/**
 * The payments module of the engine: transactions, account vaults, transaction batches,
 * Level 3 and the receipt outbox (migrations 100–199). Registered in engine-modules.ts.
 *
 * The vault key comes from EngineOptions.vaultKey (the app passes the key from its
 * SecretStore); without it (standalone engine, tests) the module reads or creates it with
 * `getOrCreateKey(new FileSecretStore(join(dataDir, 'secrets')), 'vault-key')`, a 0600 file
 * under <dataDir>/secrets/.
 *
 * Every write goes through one GroupCommitWriter, so a 2xx is sent only after the COMMIT
 * that holds it is on disk. The module writes through its own connection to the engine's
 * database file (synchronous=NORMAL + an fsync of the WAL after every group commit, off
 * the event loop; see group-commit-writer.ts), so the merchant module's connection keeps
 * its own synchronous=FULL. Both connections share the WAL, so each sees the other's
 * commits; all statements of this module go through its connection (`pctx.stmt`).
 */
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { openDatabase, StatementCache, type Db } from '../framework/database';
import { FileSecretStore } from '../../secrets/file-secret-store';
import { getOrCreateKey } from '../../secrets/secret-store';
import type { EngineContext, EngineModule } from '../framework/context';
import { BatchService, batchRecord } from './batch-service';
import { GroupCommitWriter } from './group-commit-writer';
import { accountVaultResource } from './account-vault-resource';
import { level3Resource } from './level3-resource';
import { Level3Service } from './level3-service';
import { MerchantLookups } from './merchant-lookups';
import { PAYMENTS_MIGRATIONS } from './payments-migrations';
import { ReceiptOutbox } from './receipt-outbox';
import { transactionBatchResource } from './transaction-batch-resource';
import { docWithLinks } from './transaction-doc';
import { applyExtraExpands } from './transaction-expands';
import { listTransactions } from './transaction-list';
import { transactionResource, type TransactionHooks } from './transaction-resource';
import { TransactionService, type TransactionRow } from './transaction-service';
import { RequestFingerprints } from './request-fingerprint';
import { VaultCrypto, VAULT_KEY_NAME } from './vault-crypto';
import { VaultService } from './vault-service';
import { WalCheckpointer } from '../../common/wal-checkpointer';
import { keepWalBounded } from './wal-restart';
import { RecordStorage, recordKeyPositions } from './record-storage';

export interface PaymentsRuntime {
  writer: GroupCommitWriter;
  transactions: TransactionService;
  vaults: VaultService;
  batches: BatchService;
  level3: Level3Service;
}


export function createPaymentsModule(): EngineModule & { runtime(): PaymentsRuntime; connection(): EngineContext } {
  let rt: PaymentsRuntime | undefined;
  let lookups: MerchantLookups | undefined;
  let pdb: Db | undefined;
  let pctx: EngineContext | undefined;
  let checkpointer: WalCheckpointer | undefined;
  const runtime = (): PaymentsRuntime => {
    if (!rt) throw new Error('payments module not initialised');
    return rt;
  };


  const expander = (ctx: EngineContext, names: string[]) => {
    const r = runtime();
    const want = new Set(names);
    return (d: Record<string, unknown>, row: { id: string }) => {
      const t = r.transactions.getRow(row.id) as TransactionRow;
      if (want.has('transaction_level3')) d.transaction_level3 = r.level3.expandFor(t);
      if (want.has('account_vault')) {
        const v = t.account_vault_id ? (ctx.stmt('SELECT * FROM account_vaults WHERE id = ?').get(t.account_vault_id) as Parameters<VaultService['serialize']>[0] | undefined) : undefined;
        d.account_vault = v ? r.vaults.serialize(v) : null;
      }
      if (want.has('transaction_batch')) {
        const b = t.batch_id ? (ctx.stmt('SELECT * FROM transaction_batches WHERE id = ?').get(t.batch_id) as Record<string, unknown> | undefined) : undefined;
        d.transaction_batch = b ? batchRecord(ctx, b) : null;
      }
      if (want.has('contact')) {
        let c: unknown = null;
        if (t.contact_id) {
          try {
            const def = ctx.resource('contact');
            const row2 = ctx.getById(def, t.contact_id);
            c = row2 ? ctx.serialize(def, row2, undefined) : null;
          } catch {
            c = lookups?.contact(t.contact_id) ?? null;
          }
        }
        d.contact = c;
      }
      if (want.has('previous_transaction')) {
        const p = t.previous_transaction_id ? r.transactions.getRow(t.previous_transaction_id) : undefined;
        d.previous_transaction = p ? r.transactions.record(p) : null;
      }
      applyExtraExpands(ctx, want, d, t);
    };
  };

  const href = (id: string) => `${(pctx as EngineContext).origin}/v2/transactions/${id}`;
  const answer = (res: { status: number; doc: string; id: string; open?: string }) => ({ status: res.status, body: `{"transaction":${docWithLinks(res.doc, href(res.id), res.open)}}` });
  /** What the transaction declaration (transaction-resource.ts) asks of the running module (made once; each call reads the runtime). */
  const transactionHooks: TransactionHooks = {
    // Reads go through the module's own connection, as its writes do.
    list: (_engineCtx, req) => {
      const ctx = pctx as EngineContext;
      const r = runtime();
      r.transactions.sweepAch();
      return listTransactions(ctx, req, (names) => expander(ctx, names), r.transactions.storage, r.transactions.locationsWithTransactions, (l) => r.transactions.countOf(l));
    },
    view: (_engineCtx, req, id) => {
      const ctx = pctx as EngineContext;
      const r = runtime();
      r.transactions.sweepAch();
      const row = r.transactions.findForRequest(req, id);
      const q = (req.query ?? {}) as Record<string, unknown>;
      const names = typeof q.expand === 'string' && q.expand ? q.expand.split(',') : [];
      if (names.length === 0) return answer({ status: 200, doc: r.transactions.recordJson(row), id: row.id }).body;
      const d: Record<string, unknown> = r.transactions.record(row);
      expander(ctx, names)(d, row);
      d._links = { self: { href: href(row.id) } };
      return JSON.stringify({ transaction: d });
    },
    find: (req, id) => runtime().transactions.findForRequest(req, id),
    create: async (req, input) => answer(await runtime().transactions.createRead(req.auth, input)),
    act: async (req, row, input) => answer(await runtime().transactions.act(req, row, input)),
    effectiveAction: (req, action) => runtime().transactions.effectiveAction(req, action),
  };

  return {
    name: 'payments',
    migrations: PAYMENTS_MIGRATIONS,
    // Which key each bit of a stored record's doc_keys stands for (record-storage.ts).
    referenceTables: ['transaction_record_keys'],
    resources: [transactionResource(() => transactionHooks), accountVaultResource(runtime), transactionBatchResource(runtime), level3Resource(runtime)],
    runtime,
    /** This module's view of the context (its own connection): due work that writes through the writer reads here. */
    connection: () => {
      if (!pctx) throw new Error('payments module not initialised');
      return pctx;
    },

    async init(engineCtx) {
      const key = engineCtx.options.vaultKey ?? (await getOrCreateKey(new FileSecretStore(join(engineCtx.options.dataDir, 'secrets')), VAULT_KEY_NAME));
      const file = engineCtx.db.name;
      const walPath = `${file}-wal`;
      // Async WAL fsync needs a file database whose WAL exists (the migrations just wrote to it).
      const asyncSync = file !== ':memory:' && file !== '' && existsSync(walPath);
      pdb = openDatabase(file, { synchronous: asyncSync ? 'NORMAL' : 'FULL' });
      if (asyncSync) {
        checkpointer = await WalCheckpointer.start(file);
        if (checkpointer) {
          pdb.pragma('wal_autocheckpoint = 0');
          // After a full checkpoint SQLite restarts the WAL; keep its file from staying huge.
          pdb.pragma('journal_size_limit = 67108864');
        }
      }
      const cache = new StatementCache(pdb);
      const db = pdb;
      // The module's view of the engine context: same helpers, its own connection.
      const ctx: EngineContext = Object.create(engineCtx, { db: { value: db }, stmt: { value: (sql: string) => cache.get(sql) } });
      pctx = ctx;
      // Lean records (record-storage.ts): the key positions come from the engine's database;
      // SQL of other modules reads a whole record with transaction_record(doc, doc_keys).
      const storage = new RecordStorage(recordKeyPositions(engineCtx.db));
      for (const conn of [engineCtx.db, pdb]) conn.function('transaction_record', { deterministic: true }, (doc: unknown, keys: unknown) => (typeof doc === 'string' ? storage.json(doc, typeof keys === 'string' ? keys : null) : null));
      const writer = new GroupCommitWriter(db, asyncSync ? { walPath } : {});
      if (checkpointer) keepWalBounded(writer, checkpointer, engineCtx.options.walRestartFrames ? { restartFrames: engineCtx.options.walRestartFrames } : {});
      lookups = new MerchantLookups(ctx);
      const batches = new BatchService(ctx);
      writer.onRollback(() => batches.forget());
      const vaults = new VaultService(ctx, writer, lookups, new VaultCrypto(key));
      const transactions = new TransactionService(ctx, writer, lookups, batches, vaults, new ReceiptOutbox(ctx), new RequestFingerprints(key), storage);
      const level3 = new Level3Service(ctx, lookups);
      rt = { writer, transactions, vaults, batches, level3 };
      transactions.expandDoc = (d, row, names) => expander(ctx, names)(d, row);
    },

    // First start and reset(): the tables were (re)filled, so drop what was cached from them.
    seed() {
      rt?.transactions.reloadLocations();
      rt?.batches.forget();
      lookups?.clear();
    },

    async close() {
      await rt?.writer.close();
      await checkpointer?.stop();
      lookups?.clear();
      if (pdb?.open) pdb.close();
    },
  };
}

