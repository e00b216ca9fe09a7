/**
 * Pay links and quick invoices from the counter (phone and mail orders): cashiers and
 * managers may list, create, send and resend them. The gateway does the work (validation,
 * the messages in its outbox, the payment pages); this maps its records to the screens'
 * views: money as cents, paid / unpaid, the remaining balance, the payment page address.
 * Delivery follows what was typed: e-mail, SMS, or both.
 * Simplification: the list shows the latest 200 of each.
 */
import type { BillingLinksView, BillingPayment, HandlerMap, InvoiceView, PaylinkView } from '../../../shared/ipc/contract';
import { formatMoney, parseMoney } from '../../../shared/payments/money';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import { withGatewayFailure } from '../gateway/guarded-call';
import { payPagesOrigin } from '../pay-pages/pay-pages';

export const BILLING_LINK_MESSAGES = {
  noLocation: 'Pay links need the gateway location; ask a manager to set RINGUP_LOCATION_ID.',
} as const;

type Handlers = Pick<HandlerMap, 'paylinks:list' | 'paylinks:create-link' | 'paylinks:create-invoice' | 'paylinks:resend'>;

interface V2Paylink {
  id: string;
  amount_due: string | null;
  description: string | null;
  email: string | null;
  cell_phone: string | null;
  status_id: number;
  /** The engine's; a gateway without it (an older one) is read from status_id alone. */
  remaining_balance?: string | null;
  created_ts: number;
  payment_url?: string;
}

interface V2QuickInvoice {
  id: string;
  title: string;
  amount_due: string;
  remaining_balance: string;
  payment_status_id: number;
  status_id: number;
  due_date: string;
  email: string | null;
  cell_phone: string | null;
  created_ts: number;
}

const recipientOf = (email: string | null, phone: string | null) => [email, phone].filter((x): x is string => !!x).join(' · ');

/** The pages' addresses (the seed's link shape) at `origin`: the store's public pay page address, else the gateway's own (pay-pages.ts). */
const invoicePage = (origin: string, id: string) => `${origin}/quickinvoice/?id=${encodeURIComponent(id)}`;
const paylinkPage = (origin: string, id: string) => `${origin}/paylink?paylink_id=${encodeURIComponent(id)}`;

/** Paid when the gateway says so; partly paid when some of the amount due is collected. */
function paylinkPayment(p: V2Paylink, dueCents: number | null, remainingCents: number | null): BillingPayment {
  if (p.status_id === 1) return 'paid';
  return dueCents && remainingCents !== null && remainingCents < dueCents ? 'partial' : 'unpaid';
}

export function paylinkViewOf(origin: string, p: V2Paylink): PaylinkView {
  const cents = p.amount_due ? parseMoney(p.amount_due) : null;
  const remaining = p.status_id === 1 ? 0 : p.remaining_balance != null ? parseMoney(p.remaining_balance) : cents || null;
  return {
    id: p.id,
    amountCents: cents ? cents : null,
    description: p.description,
    recipient: recipientOf(p.email, p.cell_phone),
    payment: paylinkPayment(p, cents, remaining),
    remainingCents: remaining,
    createdTs: p.created_ts,
    pageUrl: p.payment_url ?? paylinkPage(origin, p.id),
  };
}

export function invoiceViewOf(origin: string, q: V2QuickInvoice): InvoiceView {
  return {
    id: q.id,
    title: q.title,
    amountDueCents: parseMoney(q.amount_due) ?? 0,
    remainingCents: parseMoney(q.remaining_balance) ?? 0,
    payment: q.payment_status_id === 2 ? 'paid' : q.payment_status_id === 3 ? 'partial' : 'unpaid',
    open: q.status_id === 1,
    dueDate: q.due_date,
    recipient: recipientOf(q.email, q.cell_phone),
    createdTs: q.created_ts,
    pageUrl: invoicePage(origin, q.id),
  };
}

/** For cashiers and managers (billing-links.ts declares it, and what is audited; the channel rules enforce it). */
export function createBillingLinksHandlers(deps: { client: GatewayClient; locationId: string | undefined }): Handlers {
  const { client } = deps;
  const guarded = <T>(fn: (locationId: string) => Promise<Result<T>>): Promise<Result<T>> =>
    withGatewayFailure(async () => (deps.locationId ? fn(deps.locationId) : fail('not_configured', BILLING_LINK_MESSAGES.noLocation)));

  return {
    'paylinks:list': async () =>
      guarded(async (location_id) => {
        const q = { location_id, page_size: 200, sort: '-created_ts' };
        const [pl, qi, origin] = await Promise.all([
          client.request<{ paylinks: V2Paylink[] }>('GET', '/paylinks', undefined, { ...q, expand: 'payment_url' }),
          client.request<{ quickinvoices: V2QuickInvoice[] }>('GET', '/quickinvoices', undefined, q),
          payPagesOrigin(client, location_id),
        ]);
        const view: BillingLinksView = { paylinks: pl.paylinks.map((p) => paylinkViewOf(origin, p)), invoices: qi.quickinvoices.map((x) => invoiceViewOf(origin, x)) };
        return ok(view);
      }),
    'paylinks:create-link': async (a) =>
      guarded(async (location_id) => {
        const delivery = a.email && a.cellPhone ? 3 : a.cellPhone ? 2 : 1;
        const body = {
          paylink: {
            location_id,
            delivery_method: delivery,
            ...(a.amountCents > 0 ? { amount_due: formatMoney(a.amountCents) } : {}),
            ...(a.description ? { description: a.description } : {}),
            ...(a.email ? { email: a.email } : {}),
            ...(a.cellPhone ? { cell_phone: a.cellPhone } : {}),
          },
        };
        const r = await client.request<{ paylink: V2Paylink }>('POST', '/paylinks', body, { expand: 'payment_url' });
        return ok(paylinkViewOf(await payPagesOrigin(client, location_id), r.paylink));
      }),
    'paylinks:create-invoice': async (a) =>
      guarded(async (location_id) => {
        const items: Record<string, string> = {};
        for (const it of a.items) items[it.name] = formatMoney(it.amountCents);
        if (Object.keys(items).length !== a.items.length) return fail('bad_request', 'Two lines have the same name; give each line its own name.', { items: ['Two lines have the same name.'] });
        const body = {
          quickinvoice: {
            location_id,
            title: a.title,
            due_date: a.dueDate,
            item_list: items,
            allow_partial_pay: a.allowPartial ? 1 : 0,
            send_email: a.email ? 1 : 0,
            ...(a.email ? { email: a.email } : {}),
            ...(a.cellPhone ? { cell_phone: a.cellPhone, send_text_to_pay: 1 } : {}),
          },
        };
        const r = await client.request<{ quickinvoice: V2QuickInvoice }>('POST', '/quickinvoices', body);
        return ok(invoiceViewOf(await payPagesOrigin(client, location_id), r.quickinvoice));
      }),
    'paylinks:resend': async ({ kind, id }) =>
      guarded(async () => {
        await client.request('POST', `/${kind === 'paylink' ? 'paylinks' : 'quickinvoices'}/${encodeURIComponent(id)}/resend`);
        return ok(null);
      }),
  };
}
