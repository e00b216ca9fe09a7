/**
 * The payment pages the engine serves on its own address (no credentials: the link is
 * the invitation): `/paylink?paylink_id=<id>` and `/quickinvoice/?id=<id>` (the seed's link
 * shapes). Each is a plain form (card or bank account, no scripts, the OAuth pages' shell
 * and CSP) posting back to the same path; the payment runs through the payments module's
 * normal transaction path (TransactionService.createFrom) as the link's creator, and the
 * link's bookkeeping (paylink payment + balance, status_id 1 once the amount due is
 * collected; invoice link + balance + thank-you) commits in the same write as the
 * transaction (TransactionOrigin.withinCommit), so a paid link cannot be paid twice even by
 * two tabs at once. Only approved money counts: a partial approval (the sandbox's 2.01)
 * leaves the rest to pay on the same page, for a pay link as for an invoice. Each rendered form carries a random form id, signed with
 * a per-process key (the anti-forgery token, bound to the link), and used as the sale's
 * transaction_api_id: a double submit charges once. Bad input is answered on the page in
 * plain words; the card number and CVV are never echoed back.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { formatMoney, formatMoneyDisplay, parseMoney } from '../../../shared/payments/money';
import type { EngineContext } from '../framework/context';
import { ApiError, fmt } from '../framework/errors';
import { newSecret } from '../framework/ids';
import { keepsDigits } from '../framework/card-mask';
import type { Row } from '../framework/resource';
import { esc, sendErrorPage, sendPage } from '../oauth/html-page';
import { addFormParser, paramsOf, type Params } from '../oauth/form-params';
import { errorSentences } from '../oauth/internal-api';
import type { TransactionService } from '../payments/transaction-service';
import { BILLING_MSG } from './billing-messages';
import { locationName } from './billing-shared';
import { locationToday } from '../recurring/location-today';
import { PAYMENT_STATUS, recalcInvoice } from './invoice-balance';
import { paylinkCollectedCents, recordPaylinkPayment } from './paylink-balance';
import { sendThankYou } from './invoice-notices';
import { authForUser } from './payer-auth';

type Kind = 'paylink' | 'quickinvoice';
const FORM_ID = /^[0-9a-f]{32}$/;

interface Target {
  kind: Kind;
  row: Row;
  path: string;
  title: string;
  /** Fixed amount in cents, or undefined when the payer enters it. */
  fixedCents?: number;
  /** Default shown in the amount input. */
  suggestedCents?: number;
}

function methodsOf(row: Row): { cc: boolean; ach: boolean } {
  return { cc: typeof row.cc_product_transaction_id === 'string' && !!row.cc_product_transaction_id, ach: typeof row.ach_product_transaction_id === 'string' && !!row.ach_product_transaction_id };
}

export function registerPaymentPages(app: FastifyInstance, ctx: EngineContext, transactions: () => TransactionService): void {
  const key = randomBytes(32);
  const sign = (kind: Kind, id: unknown, formId: string) => createHmac('sha256', key).update(`${kind}\0${String(id)}\0${formId}`).digest('hex');
  const tokenOk = (kind: Kind, id: unknown, formId: string | undefined, token: string | undefined) => {
    if (!formId || !FORM_ID.test(formId) || typeof token !== 'string' || token.length !== 64) return false;
    return timingSafeEqual(Buffer.from(sign(kind, id, formId)), Buffer.from(token));
  };

  const load = (kind: Kind, id: string | undefined): Row | undefined => {
    if (!id || id.length > 64) return undefined;
    return ctx.stmt(`SELECT * FROM ${kind === 'paylink' ? 'paylinks' : 'quick_invoices'} WHERE id = ?`).get(id) as Row | undefined;
  };

  /** Why this link cannot take a payment now, if it cannot. */
  const closedReason = (kind: Kind, row: Row): [number, string] | undefined => {
    const today = locationToday(ctx, String(row.location_id));
    if (kind === 'paylink') {
      if (row.status_id === 1) return [200, BILLING_MSG.PAGE_PAID];
      if (row.active === 0) return [410, BILLING_MSG.PAGE_NOT_FOUND];
    } else {
      if (row.payment_status_id === PAYMENT_STATUS.paid && row.status_id === 0) return [200, BILLING_MSG.PAGE_PAID];
      if (row.status_id === 0 || row.is_active === 0) return [410, BILLING_MSG.PAGE_CLOSED];
    }
    if (typeof row.expire_date === 'string' && row.expire_date < today) return [410, BILLING_MSG.PAGE_EXPIRED];
    return undefined;
  };

  const targetOf = (kind: Kind, row: Row): Target => {
    if (kind === 'paylink') {
      // What is left of the amount due (a partial approval collected the rest of it).
      const cents = parseMoney(row.remaining_balance ?? row.amount_due);
      return { kind, row, path: '/paylink', title: `Pay ${locationName(ctx, row.location_id)}`, ...(cents ? { fixedCents: cents } : {}) };
    }
    const remaining = parseMoney(row.remaining_balance) ?? 0;
    return row.allow_partial_pay === 1 || row.allow_overpayment === 1
      ? { kind, row, path: '/quickinvoice/', title: String(row.title), suggestedCents: remaining }
      : { kind, row, path: '/quickinvoice/', title: String(row.title), fixedCents: remaining };
  };

  const summary = (t: Target): string => {
    const r = t.row;
    if (t.kind === 'paylink') {
      const due = parseMoney(r.amount_due);
      const left = parseMoney(r.remaining_balance);
      const partly = due !== null && left !== null && left < due
        ? `<dl><dt>Amount due</dt><dd>${esc(formatMoneyDisplay(due))}</dd><dt>Remaining balance</dt><dd id="remaining">${esc(formatMoneyDisplay(left))}</dd></dl>`
        : '';
      return `<p class="muted">${esc(locationName(ctx, r.location_id))} asks you to pay${r.description ? ` for ${esc(r.description)}` : ''}.</p>${partly}`;
    }
    const items = Object.entries(JSON.parse(String(r.item_list)) as Record<string, number>)
      .map(([name, amount]) => `<dt>${esc(name)}</dt><dd>${esc(formatMoneyDisplay(parseMoney(amount) ?? 0))}</dd>`)
      .join('');
    const files = ctx.stmt('SELECT id, file_name, size FROM quick_invoice_files WHERE quick_invoice_id = ? ORDER BY created_ts, id').all(r.id) as { id: string; file_name: string }[];
    const fileList = files.length
      ? `<p>Attached: ${files.map((f) => `<a class="button-link" href="/quickinvoice/file?id=${encodeURIComponent(String(r.id))}&amp;file_id=${encodeURIComponent(f.id)}">${esc(f.file_name)}</a>`).join(', ')}</p>`
      : '';
    return `<p class="muted">From ${esc(locationName(ctx, r.location_id))}${r.invoice_number ? ` · invoice ${esc(r.invoice_number)}` : ''} · due ${esc(r.due_date)}</p>
${r.item_header ? `<p>${esc(r.item_header)}</p>` : ''}<dl>${items}<dt>Amount due</dt><dd>${esc(formatMoneyDisplay(parseMoney(r.amount_due) ?? 0))}</dd>
<dt>Remaining balance</dt><dd id="remaining">${esc(formatMoneyDisplay(parseMoney(r.remaining_balance) ?? 0))}</dd></dl>
${r.item_footer ? `<p>${esc(r.item_footer)}</p>` : ''}${r.note ? `<p>${esc(r.note)}</p>` : ''}${fileList}`;
  };

  const form = (t: Target, keep: Params, notice = ''): string => {
    const formId = newSecret(16); // the payment's transaction_api_id: never card-like (framework/ids.ts)
    const m = methodsOf(t.row);
    const chosen = keep.payment_method ?? (m.cc ? 'cc' : 'ach');
    const idName = t.kind === 'paylink' ? 'paylink_id' : 'id';
    const amount =
      t.fixedCents !== undefined
        ? `<p><strong>Amount to pay: ${esc(formatMoneyDisplay(t.fixedCents))}</strong></p>`
        : `<label for="amount">Amount to pay (USD)</label><input id="amount" name="amount" inputmode="decimal" required value="${esc(keep.amount ?? (t.suggestedCents ? formatMoney(t.suggestedCents) : ''))}">`;
    const radio = (value: string, label: string) =>
      `<label class="choice"><input type="radio" name="payment_method" value="${value}"${chosen === value ? ' checked' : ''}>${label}</label>`;
    const card = m.cc
      ? `<fieldset><legend>Card</legend>
<label for="account_holder_name">Name on card</label><input id="account_holder_name" name="account_holder_name" autocomplete="cc-name" value="${esc(keep.account_holder_name ?? '')}">
<label for="account_number">Card number</label><input id="account_number" name="account_number" inputmode="numeric" autocomplete="cc-number">
<div class="pair"><div><label for="exp_date">Expiry (MMYY)</label><input id="exp_date" name="exp_date" inputmode="numeric" autocomplete="cc-exp" maxlength="4"></div>
<div><label for="cvv">Security code (CVV)</label><input id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" maxlength="4"></div></div>
<div class="pair"><div><label for="billing_street">Billing street</label><input id="billing_street" name="billing_street" autocomplete="address-line1" value="${esc(keep.billing_street ?? '')}"></div>
<div><label for="billing_zip">Billing ZIP</label><input id="billing_zip" name="billing_zip" autocomplete="postal-code" value="${esc(keep.billing_zip ?? '')}"></div></div></fieldset>`
      : '';
    const bank = m.ach
      ? `<fieldset><legend>Bank account</legend>
<label for="ach_holder">Account holder name</label><input id="ach_holder" name="ach_account_holder_name" value="${esc(keep.ach_account_holder_name ?? '')}">
<div class="pair"><div><label for="routing">Routing number</label><input id="routing" name="routing" inputmode="numeric" maxlength="9" value="${esc(keep.routing ?? '')}"></div>
<div><label for="ach_account">Account number</label><input id="ach_account" name="ach_account_number" inputmode="numeric" maxlength="17"></div></div></fieldset>`
      : '';
    return `<h1>${esc(t.title)}</h1>${summary(t)}${notice}
<form method="post" action="${t.path}" autocomplete="off">
<input type="hidden" name="${idName}" value="${esc(t.row.id)}">
<input type="hidden" name="form_id" value="${formId}"><input type="hidden" name="csrf_token" value="${sign(t.kind, t.row.id, formId)}">
${amount}
${m.cc && m.ach ? `<fieldset><legend>Pay by</legend>${radio('cc', 'Card')} ${radio('ach', 'Bank account')}</fieldset>` : `<input type="hidden" name="payment_method" value="${m.cc ? 'cc' : 'ach'}">`}
${card}${bank}
<div class="row"><button type="submit">Pay</button></div></form>`;
  };

  const show = (reply: FastifyReply, status: number, t: Target, keep: Params = {}, message?: string) =>
    sendPage(reply, status, { title: t.title, ...(message ? { error: message } : {}), body: form(t, keep, message ? `<p class="alert" role="alert">${esc(message)}</p>` : '') });

  const view = (kind: Kind) => async (req: { query: unknown }, reply: FastifyReply) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const id = kind === 'paylink' ? q.paylink_id : q.id;
    const row = load(kind, typeof id === 'string' ? id : undefined);
    if (!row) return sendErrorPage(reply, 404, 'Payment link not found', BILLING_MSG.PAGE_NOT_FOUND);
    const t = targetOf(kind, row);
    const closed = closedReason(kind, row);
    if (closed) return sendPage(reply, closed[0], { title: t.title, body: `<h1>${esc(t.title)}</h1>${kind === 'quickinvoice' ? summary(t) : ''}<p class="ok" role="status">${esc(closed[1])}</p>` });
    return show(reply, 200, t);
  };

  const pay = (kind: Kind) => async (req: Parameters<typeof paramsOf>[0], reply: FastifyReply) => {
    const p = paramsOf(req);
    const row = load(kind, kind === 'paylink' ? p.paylink_id : p.id);
    if (!row) return sendErrorPage(reply, 404, 'Payment link not found', BILLING_MSG.PAGE_NOT_FOUND);
    const t = targetOf(kind, row);
    const closed = closedReason(kind, row);
    if (closed) return sendPage(reply, closed[0] === 200 ? 409 : closed[0], { title: t.title, body: `<h1>${esc(t.title)}</h1><p class="ok" role="status">${esc(closed[1])}</p>` });
    const keep: Params = {};
    for (const k of ['amount', 'payment_method', 'account_holder_name', 'billing_street', 'billing_zip', 'ach_account_holder_name', 'routing']) if (p[k] !== undefined) keep[k] = p[k];
    if (!tokenOk(kind, row.id, p.form_id, p.csrf_token)) return show(reply, 403, t, keep, BILLING_MSG.PAGE_FORM);
    const m = methodsOf(row);
    const method = p.payment_method;
    if (method !== 'cc' && method !== 'ach') return show(reply, 422, t, keep, BILLING_MSG.PAGE_METHOD);
    if (!m[method]) return show(reply, 422, t, keep, BILLING_MSG.PAGE_METHOD_UNAVAILABLE);
    // The same form posted again (a double submit, a reload) is answered with its payment: after
    // a partial approval the page now asks for the rest, which under this form's
    // transaction_api_id would be another request (422); the rest is paid with a new form.
    const apiId = `${kind}-${p.form_id as string}`;
    const prior = transactions().byApiId(String(row.location_id), apiId);
    let cents = prior ? prior.amount : t.fixedCents;
    if (cents === undefined) {
      const entered = parseMoney(p.amount ?? '');
      if (entered === null || entered === 0) return show(reply, 422, t, keep, BILLING_MSG.PAGE_AMOUNT);
      cents = entered;
    }
    if (kind === 'quickinvoice' && !prior) {
      const remaining = parseMoney(row.remaining_balance) ?? 0;
      if (row.allow_partial_pay !== 1 && cents < remaining) return show(reply, 422, t, keep, fmt(BILLING_MSG.PAGE_AMOUNT_FULL, { remaining: formatMoneyDisplay(remaining) }));
      if (row.allow_overpayment !== 1 && cents > remaining) return show(reply, 422, t, keep, fmt(BILLING_MSG.PAGE_AMOUNT_OVER, { remaining: formatMoneyDisplay(remaining) }));
    }
    const auth = authForUser(ctx, row.created_user_id);
    if (!auth) return show(reply, 410, t, keep, BILLING_MSG.PAGE_NOT_FOUND);
    const body: Record<string, unknown> = {
      transaction_api_id: apiId,
      location_id: row.location_id,
      transaction_amount: formatMoney(cents),
      ...(row.contact_id ? { contact_id: row.contact_id } : {}),
      ...(row.email ? { notification_email_address: row.email } : {}),
    };
    if (method === 'cc') {
      Object.assign(body, { action: kind === 'paylink' && row.paylink_action === 'auth-only' ? 'authonly' : 'sale', payment_method: 'cc', product_transaction_id: row.cc_product_transaction_id, account_number: p.account_number ?? '', exp_date: p.exp_date ?? '' });
      for (const k of ['cvv', 'account_holder_name', 'billing_street', 'billing_zip']) if (p[k]) body[k] = p[k];
    } else {
      Object.assign(body, { action: 'debit', payment_method: 'ach', product_transaction_id: row.ach_product_transaction_id, account_number: p.ach_account_number ?? '', routing: p.routing ?? '', account_holder_name: p.ach_account_holder_name ?? '' });
    }
    const origin =
      kind === 'paylink'
        ? {
            doc: { paylink_id: row.id, trx_source_id: 3 },
            withinCommit(c: EngineContext, txn: { id: string; approved: boolean; authAmountCents: number }) {
              if (!txn.approved) return;
              const link = c.stmt('SELECT * FROM paylinks WHERE id = ?').get(row.id) as Row | undefined;
              if (!link || link.status_id === 1) throw new ApiError(409, { general: [BILLING_MSG.PAGE_PAID] });
              // Another tab may have collected part of it meanwhile: never more than what is left.
              const due = parseMoney(link.amount_due);
              const left = due === null ? null : due - paylinkCollectedCents(c, String(row.id));
              if (left !== null && txn.authAmountCents > left) throw new ApiError(409, { general: [fmt(BILLING_MSG.PAGE_AMOUNT_OVER, { remaining: formatMoneyDisplay(Math.max(0, left)) })] });
              recordPaylinkPayment(c, link, txn.id, txn.authAmountCents >= (cents as number));
            },
          }
        : {
            doc: { quick_invoice_id: row.id, trx_source_id: 8 },
            withinCommit(c: EngineContext, txn: { id: string; approved: boolean; authAmountCents: number }) {
              if (!txn.approved) return;
              const inv = c.stmt('SELECT * FROM quick_invoices WHERE id = ?').get(row.id) as Row | undefined;
              if (!inv || inv.status_id !== 1) throw new ApiError(409, { general: [BILLING_MSG.PAGE_CLOSED] });
              const remaining = parseMoney(inv.remaining_balance) ?? 0;
              if (inv.allow_overpayment !== 1 && txn.authAmountCents > remaining) throw new ApiError(409, { general: [fmt(BILLING_MSG.PAGE_AMOUNT_OVER, { remaining: formatMoneyDisplay(remaining) })] });
              c.stmt('INSERT INTO quick_invoice_transactions (transaction_id, quick_invoice_id, created_ts) VALUES (?, ?, ?)').run(txn.id, row.id, c.clock.now());
              const { row: after, becamePaid } = recalcInvoice(c, inv);
              if (becamePaid) sendThankYou(c, after);
            },
          };
    let result: { doc: string };
    try {
      result = prior ? { doc: transactions().recordJson(prior) } : await transactions().createFrom(auth, body, undefined, origin);
    } catch (err) {
      if (err instanceof ApiError) {
        const fresh = load(kind, String(row.id));
        return show(reply, err.status === 409 ? 409 : 422, targetOf(kind, fresh ?? row), keep, fmt(BILLING_MSG.PAGE_REJECTED, { reasons: errorSentences({ errors: err.errors }) }));
      }
      throw err;
    }
    const txn = JSON.parse(result.doc) as Record<string, unknown>;
    const approved = [101, 102, 131, 132, 133, 134].includes(Number(txn.status_id));
    if (!approved) return show(reply, 200, t, keep, fmt(BILLING_MSG.PAGE_DECLINED, { reason: String(txn.verbiage ?? 'declined') }));
    const fresh = load(kind, String(row.id)) ?? row;
    const what = `${method === 'ach' ? 'bank account' : 'card'}${txn.last_four ? ` •••• ${String(txn.last_four)}` : ''}`;
    const left = parseMoney(fresh.remaining_balance);
    const balance = left !== null ? `<dt>Remaining balance</dt><dd id="remaining">${esc(formatMoneyDisplay(left))}</dd>` : '';
    // A partial approval on a pay link: the rest is paid on the same page (an invoice says so by its balance).
    const rest =
      kind === 'paylink' && left !== null && left > 0
        ? `<p class="alert" role="alert">${esc(fmt(BILLING_MSG.PAGE_PARTLY_APPROVED, { remaining: formatMoneyDisplay(left) }))}</p><p><a class="button-link" href="${t.path}?paylink_id=${encodeURIComponent(String(row.id))}">Pay ${esc(formatMoneyDisplay(left))}</a></p>`
        : '';
    const out = `<h1>${esc(BILLING_MSG.PAGE_APPROVED)}</h1>
<p class="ok" role="status">${esc(BILLING_MSG.PAGE_APPROVED)}: ${esc(formatMoneyDisplay(parseMoney(txn.auth_amount) ?? cents))} from your ${esc(what)}. Thank you.</p>${rest}
<dl><dt>Paid to</dt><dd>${esc(locationName(ctx, row.location_id))}</dd>${balance}<dt>Reference</dt><dd>${esc(txn.id)}</dd></dl>`;
    return sendPage(reply, 201, { title: BILLING_MSG.PAGE_APPROVED, body: out });
  };

  void app.register(async (pages) => {
    addFormParser(pages);
    // Card numbers (framework/card-mask.ts): the account the form pays with and the form's own
    // tokens are consumed, the link's id is an identifier; names, street… are masked.
    const config = {
      keepsDigits: keepsDigits(undefined, {
        account_number: 'consumed', ach_account_number: 'consumed', routing: 'consumed', exp_date: 'consumed', cvv: 'consumed', csrf_token: 'consumed', form_id: 'consumed',
        paylink_id: 'identifier', id: 'identifier',
      }),
    };
    pages.get('/paylink', { config }, view('paylink'));
    pages.post('/paylink', { config }, pay('paylink'));
    pages.get('/quickinvoice', { config }, view('quickinvoice'));
    pages.post('/quickinvoice', { config }, pay('quickinvoice'));
    pages.get('/quickinvoice/file', async (req, reply) => {
      const q = req.query as Record<string, unknown>;
      const f = ctx.stmt('SELECT file_name, content_type, data FROM quick_invoice_files WHERE id = ? AND quick_invoice_id = ?').get(String(q.file_id ?? ''), String(q.id ?? '')) as
        | { file_name: string; content_type: string; data: Buffer }
        | undefined;
      if (!f) return sendErrorPage(reply, 404, 'File not found', BILLING_MSG.PAGE_NOT_FOUND);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename="${f.file_name.replace(/[^\w.-]/g, '_')}"`)
        .header('x-content-type-options', 'nosniff')
        .send(f.data);
    });
  });
}
