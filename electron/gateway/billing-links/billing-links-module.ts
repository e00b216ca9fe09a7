/**
 * The pay link and quick invoice module (migrations 500–599): the two declared resources,
 * their stateful actions (resend, reopen, addTransaction, removeTransaction, the
 * multipart create), the public payment pages, and invoice reminders as due work.
 * Payments on the pages run through the payments module's TransactionService.
 */
import type { FastifyRequest } from 'fastify';
import { formatMoneyDisplay, parseMoney } from '../../../shared/payments/money';
import type { EngineModule } from '../framework/context';
import { ApiError, fmt, general } from '../framework/errors';
import { isPlainObject } from '../framework/validate';
import type { Row } from '../framework/resource';
import { MANAGERS, SELLERS } from '../framework/permissions';
import type { PaymentsRuntime } from '../payments/payments-module';
import { BILLING_MSG } from './billing-messages';
import { BILLING_LINKS_MIGRATIONS } from './billing-links-migrations';
import { billingLinksOpenApi } from './billing-links-openapi';
import { locationToday } from '../recurring/location-today';
import { COUNTED_STATUSES, followTransactionEvent, PAYMENT_STATUS, recalcInvoice } from './invoice-balance';
import { reminderWork, sendInvoice, sendThankYou } from './invoice-notices';
import { followPaylinkEvent } from './paylink-balance';
import { registerPaymentPages } from './payment-pages';
import { paylinkResource, sendPaylink } from './paylinks';
import { registerQuickInvoiceCreate } from './quick-invoice-create';
import { quickInvoiceResource } from './quick-invoices';

export const NOTHING_TO_SEND = 'There is no recipient to send to: set email (or cell_phone for SMS) and a delivery method that uses it.';

const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;
const flagOff = (v: unknown) => v === '0' || v === 'false';

function transactionIdOf(req: FastifyRequest): string {
  const body = req.body as Record<string, unknown> | undefined;
  const inner = body && isPlainObject(body.quickinvoice) ? body.quickinvoice : undefined;
  const id = inner?.transaction_id;
  if (typeof id !== 'string' || id === '') throw new ApiError(422, { transaction_id: [BILLING_MSG.TXN_REQUIRED] });
  return id;
}

export function createBillingLinksModule(payments: { runtime(): PaymentsRuntime }): EngineModule {
  return {
    name: 'billing-links',
    migrations: BILLING_LINKS_MIGRATIONS,
    resources: [paylinkResource, { ...quickInvoiceResource, methods: ['list', 'view', 'update', 'delete'] }],
    dueWork: (ctx) => [reminderWork(ctx)],
    // Refunds and voids of an invoice's or pay link's payments move its balance in their own write.
    onRecordEvent: (ctx, e) => {
      followTransactionEvent(ctx, e);
      followPaylinkEvent(ctx, e);
    },
    openapi: (ctx) => billingLinksOpenApi(ctx),
    routes(app, ctx) {
      const qi = ctx.resource('quickinvoice');
      const pl = ctx.resource('paylink');
      const wrapQi = (row: Row, req: FastifyRequest) => ({ quickinvoice: ctx.serialize(qi, row, req.auth, ctx.expandsOf(qi, req)) });

      registerQuickInvoiceCreate(app, ctx);

      // Sending again is what the counter does after creating; reopening an invoice or moving
      // payments on or off it changes what is owed: a manager's (as update).
      const senders = { config: { allow: SELLERS } };
      const managers = { config: { allow: MANAGERS } };
      app.post('/v2/paylinks/:id/resend', senders, async (req, reply) => {
        const row = ctx.findVisible(pl, idOf(req), req);
        const sent = ctx.db.transaction(() => sendPaylink(ctx, row))();
        if (sent === 0) throw general(422, NOTHING_TO_SEND);
        return reply.code(204).send();
      });

      app.post('/v2/quickinvoices/:id/resend', senders, async (req, reply) => {
        const row = ctx.findVisible(qi, idOf(req), req);
        const q = (req.query ?? {}) as Record<string, unknown>;
        const channels = { email: !flagOff(q.email), sms: !flagOff(q.sms) };
        const sent = ctx.db.transaction(() => sendInvoice(ctx, row, channels))();
        if (sent === 0) throw general(422, NOTHING_TO_SEND);
        return reply.code(204).send();
      });

      app.post('/v2/quickinvoices/:id/reopen', managers, async (req) => {
        const row = ctx.findVisible(qi, idOf(req), req);
        if (row.status_id === 1) throw general(422, BILLING_MSG.REOPEN_OPEN);
        if (typeof row.expire_date === 'string' && row.expire_date < locationToday(ctx, String(row.location_id))) throw general(422, BILLING_MSG.REOPEN_EXPIRED);
        if (row.payment_status_id === PAYMENT_STATUS.paid && row.allow_overpayment !== 1) throw general(422, BILLING_MSG.REOPEN_PAID);
        const updated = ctx.update(qi, row.id, { status_id: 1 }, req.auth);
        return wrapQi(updated, req);
      });

      app.put('/v2/quickinvoices/:id/addTransaction', managers, async (req) => {
        const row = ctx.findVisible(qi, idOf(req), req);
        const txnId = transactionIdOf(req);
        const out = ctx.db.transaction(() => {
          const t = ctx.stmt('SELECT id, location_id, status_id, type_id, auth_amount, refunded FROM transactions WHERE id = ?').get(txnId) as Row | undefined;
          if (!t || t.location_id !== row.location_id) throw new ApiError(422, { transaction_id: [BILLING_MSG.TXN_UNKNOWN] });
          if (!(COUNTED_STATUSES as readonly number[]).includes(Number(t.status_id)) || ![20, 50].includes(Number(t.type_id))) throw new ApiError(422, { transaction_id: [BILLING_MSG.TXN_NOT_APPROVED] });
          const linked = ctx.stmt('SELECT quick_invoice_id FROM quick_invoice_transactions WHERE transaction_id = ?').get(txnId) as { quick_invoice_id: string } | undefined;
          if (linked) throw new ApiError(422, { transaction_id: [linked.quick_invoice_id === row.id ? BILLING_MSG.TXN_ALREADY : BILLING_MSG.TXN_ON_OTHER] });
          const remaining = parseMoney(row.remaining_balance) ?? 0;
          const amount = Number(t.auth_amount) - Number(t.refunded);
          if (row.allow_overpayment !== 1 && amount > remaining) throw new ApiError(422, { transaction_id: [fmt(BILLING_MSG.TXN_OVERPAY, { remaining: formatMoneyDisplay(remaining) })] });
          ctx.stmt('INSERT INTO quick_invoice_transactions (transaction_id, quick_invoice_id, created_ts) VALUES (?, ?, ?)').run(txnId, row.id, ctx.clock.now());
          ctx.stmt("UPDATE transactions SET doc = json_set(doc, '$.quick_invoice_id', ?) WHERE id = ?").run(row.id, txnId);
          const r = recalcInvoice(ctx, row);
          if (r.becamePaid) sendThankYou(ctx, r.row);
          return r.row;
        })();
        return wrapQi(out, req);
      });

      app.put('/v2/quickinvoices/:id/removeTransaction', managers, async (req) => {
        const row = ctx.findVisible(qi, idOf(req), req);
        const txnId = transactionIdOf(req);
        const out = ctx.db.transaction(() => {
          const gone = ctx.stmt('DELETE FROM quick_invoice_transactions WHERE transaction_id = ? AND quick_invoice_id = ?').run(txnId, row.id);
          if (gone.changes === 0) throw new ApiError(422, { transaction_id: [BILLING_MSG.TXN_NOT_ON] });
          ctx.stmt("UPDATE transactions SET doc = json_set(doc, '$.quick_invoice_id', NULL) WHERE id = ?").run(txnId);
          return recalcInvoice(ctx, row).row;
        })();
        return wrapQi(out, req);
      });

      registerPaymentPages(app, ctx, () => payments.runtime().transactions);
    },
  };
}
