/**
 * The hosted pages an SSO link lands on. `/hosted/virtualterminal` is the charge page:
 * amount and description prefilled from the link, card keyed by the user, and the sale
 * runs through POST /v2/transactions in-process (internal-api.ts), so approvals,
 * declines, partial approvals and validation are the payments module's. The card number
 * and CVV are never echoed back: after an error the form comes back without them.
 * The other routes (contacts, transactions, dashboard, accounts) are simple read-only
 * pages: simplification, the engine has no full back office.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EngineContext } from '../framework/context';
import { fmt } from '../framework/errors';
import { newSecret } from '../framework/ids';
import { keepsDigits } from '../framework/card-mask';
import { formatMoney, formatMoneyDisplay, parseMoney } from '../../../shared/payments/money';
import { esc, sendErrorPage, sendPage } from './html-page';
import { HostedSessions, type HostedSession } from './hosted-sessions';
import { errorSentences, type InternalApi } from './internal-api';
import { OAUTH_MSG } from './oauth-messages';
import { paramsOf, type Params } from './form-params';
import { HOSTED_ROUTES } from './sso-routes';

const TITLES: Record<string, string> = {
  virtualterminal: 'Charge a card',
  contacts: 'Contact',
  transactions: 'Recent transactions',
  dashboard: 'Dashboard',
  accounts: 'Accounts',
};

interface Who {
  user: string;
  location: string;
}

/**
 * Each rendered charge form has its own id, sent as the sale's transaction_api_id
 * (`hosted-<id>`): the engine answers a repeated id with the original transaction, so a
 * double click, a resent form or a reload charges once. A page shown after an answer
 * (approved, declined, bad input) carries a new id: the next submit is a new charge.
 */
/** Sent as the sale's transaction_api_id: drawn so it never looks like a card number (framework/ids.ts). */
const newFormId = (): string => newSecret(16);
const FORM_ID = /^[0-9a-f]{32}$/;

function chargeForm(s: HostedSession, who: Who, values: Params, notice = ''): string {
  const amount = values.transaction_amount ?? s.prefill.transaction_amount ?? '';
  const description = values.description ?? s.prefill.description ?? '';
  const holder = values.account_holder_name ?? s.prefill.extra?.account_holder_name ?? '';
  const street = values.billing_street ?? s.prefill.extra?.billing_street ?? '';
  const zip = values.billing_zip ?? s.prefill.extra?.billing_zip ?? '';
  return `<h1>${esc(TITLES.virtualterminal)}</h1>
<p class="muted">Signed in as ${esc(who.user)} at ${esc(who.location)}.</p>${notice}
<form method="post" action="/hosted/virtualterminal" autocomplete="off">
<input type="hidden" name="csrf_token" value="${esc(s.csrf)}">
<input type="hidden" name="form_id" value="${newFormId()}">
<label for="transaction_amount">Amount (USD)</label><input id="transaction_amount" name="transaction_amount" inputmode="decimal" required value="${esc(amount)}">
<label for="description">Description</label><input id="description" name="description" maxlength="255" value="${esc(description)}">
<label for="account_holder_name">Name on card</label><input id="account_holder_name" name="account_holder_name" autocomplete="cc-name" value="${esc(holder)}">
<label for="account_number">Card number</label><input id="account_number" name="account_number" inputmode="numeric" autocomplete="cc-number" required>
<div class="pair"><div><label for="exp_date">Expiry (MMYY)</label><input id="exp_date" name="exp_date" inputmode="numeric" autocomplete="cc-exp" required maxlength="4"></div>
<div><label for="cvv">Security code (CVV)</label><input id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" maxlength="4"></div></div>
<div class="pair"><div><label for="billing_street">Billing street</label><input id="billing_street" name="billing_street" autocomplete="address-line1" value="${esc(street)}"></div>
<div><label for="billing_zip">Billing ZIP</label><input id="billing_zip" name="billing_zip" autocomplete="postal-code" value="${esc(zip)}"></div></div>
<div class="row"><button type="submit">Charge</button></div></form>`;
}

export function registerHostedPages(app: FastifyInstance, ctx: EngineContext, api: InternalApi, sessions: HostedSessions): void {
  const who = (s: HostedSession): Who => {
    const u = ctx.stmt('SELECT username, first_name, last_name FROM users WHERE id = ?').get(s.user_id) as { username: string } | undefined;
    const l = ctx.stmt('SELECT name FROM locations WHERE id = ?').get(s.location_id) as { name: string } | undefined;
    return { user: u?.username ?? s.user_id, location: l?.name ?? s.location_id };
  };
  const signedOut = (reply: FastifyReply) => sendErrorPage(reply, 401, 'Not signed in', OAUTH_MSG.HOSTED_SESSION);

  app.get('/hosted/:route', async (req: FastifyRequest<{ Params: { route: string } }>, reply) => {
    const route = req.params.route;
    if (!(HOSTED_ROUTES as readonly string[]).includes(route)) return sendErrorPage(reply, 404, 'Page not found', OAUTH_MSG.HOSTED_NOT_FOUND);
    const s = sessions.of(req);
    if (!s) return signedOut(reply);
    const w = who(s);
    if (route === 'virtualterminal') return sendPage(reply, 200, { title: TITLES.virtualterminal as string, body: chargeForm(s, w, {}) });
    let content: string;
    if (route === 'contacts' && s.contact_id) {
      const c = await api.call(s.user_id, 'GET', `/v2/contacts/${encodeURIComponent(s.contact_id)}`);
      const contact = (c.body.contact ?? {}) as Record<string, unknown>;
      const rows = ['first_name', 'last_name', 'contact_api_id', 'email', 'company_name', 'cell_phone', 'city', 'state', 'zip']
        .filter((k) => contact[k] !== null && contact[k] !== undefined && contact[k] !== '')
        .map((k) => `<dt>${esc(k.replace(/_/g, ' '))}</dt><dd>${esc(contact[k])}</dd>`)
        .join('');
      content = `<p class="ok" role="status">Contact saved.</p><dl>${rows}</dl>`;
    } else if (route === 'transactions') {
      const t = await api.call(s.user_id, 'GET', `/v2/transactions?location_id=${encodeURIComponent(s.location_id)}&page_size=10&sort=-created_ts`);
      const list = (Array.isArray(t.body.transactions) ? t.body.transactions : []) as Record<string, unknown>[];
      content = list.length
        ? `<dl>${list.map((x) => `<dt>${esc(x.last_four ? `•••• ${String(x.last_four)}` : x.payment_method)}</dt><dd>$${esc(x.transaction_amount)} · ${esc(x.verbiage)}</dd>`).join('')}</dl>`
        : '<p>No transactions yet.</p>';
    } else {
      content = '<p>You are signed in. Use your application to continue.</p>';
    }
    return sendPage(reply, 200, { title: TITLES[route] as string, body: `<h1>${esc(TITLES[route])}</h1><p class="muted">Signed in as ${esc(w.user)} at ${esc(w.location)}.</p>${content}` });
  });

  // Card numbers (framework/card-mask.ts): the card the form charges and its own tokens are consumed; the rest is masked.
  const chargeConfig = { keepsDigits: keepsDigits(undefined, { account_number: 'consumed', exp_date: 'consumed', cvv: 'consumed', csrf_token: 'consumed', form_id: 'consumed' }) };
  app.post('/hosted/virtualterminal', { config: chargeConfig }, async (req, reply) => {
    const s = sessions.of(req);
    if (!s) return signedOut(reply);
    const p = paramsOf(req);
    const w = who(s);
    // What the form may show again: never the card number or CVV.
    const keep: Params = {};
    for (const k of ['transaction_amount', 'description', 'account_holder_name', 'billing_street', 'billing_zip']) if (p[k] !== undefined) keep[k] = p[k];
    const again = (status: number, message: string) =>
      sendPage(reply, status, { title: TITLES.virtualterminal as string, error: message, body: chargeForm(s, w, keep, `<p class="alert" role="alert">${esc(message)}</p>`) });
    if (!HostedSessions.csrfOk(s, p.csrf_token) || !FORM_ID.test(p.form_id ?? '')) return sendErrorPage(reply, 403, 'Form not accepted', OAUTH_MSG.CSRF_MISMATCH);
    const cents = parseMoney(p.transaction_amount ?? '');
    if (cents === null || cents === 0) return again(400, OAUTH_MSG.HOSTED_AMOUNT);
    const txn: Record<string, unknown> = {
      ...(s.prefill.extra ?? {}),
      action: 'sale',
      payment_method: 'cc',
      transaction_api_id: `hosted-${p.form_id as string}`,
      location_id: s.location_id,
      transaction_amount: formatMoney(cents),
      account_number: p.account_number ?? '',
      exp_date: p.exp_date ?? '',
    };
    for (const k of ['description', 'cvv', 'account_holder_name', 'billing_street', 'billing_zip']) if (p[k]) txn[k] = p[k];
    if (s.contact_id) txn.contact_id = s.contact_id;
    const res = await api.call(s.user_id, 'POST', '/v2/transactions', { transaction: txn });
    if (res.status !== 201 && res.status !== 200) return again(422, fmt(OAUTH_MSG.HOSTED_REJECTED, { reasons: errorSentences(res.body) }));
    const t = res.body.transaction as Record<string, unknown>;
    const approved = t.status_id === 101 || t.status_id === 102;
    if (!approved) return again(200, fmt(OAUTH_MSG.HOSTED_DECLINED, { reason: String(t.verbiage ?? 'declined') }));
    const authCents = parseMoney(t.auth_amount) ?? cents;
    const partial = authCents < cents ? ` of ${formatMoneyDisplay(cents)} (partial approval)` : '';
    const body = `<h1>${esc(OAUTH_MSG.HOSTED_APPROVED)}</h1>
<p class="ok" role="status">${esc(OAUTH_MSG.HOSTED_APPROVED)}: ${esc(formatMoneyDisplay(authCents))}${esc(partial)} on •••• ${esc(t.last_four)}.</p>
<dl><dt>Description</dt><dd>${esc(t.description ?? '')}</dd><dt>Auth code</dt><dd>${esc(t.auth_code)}</dd><dt>Transaction</dt><dd>${esc(t.id)}</dd></dl>
<p><a class="button-link" href="/hosted/virtualterminal">New charge</a></p>`;
    return sendPage(reply, 201, { title: OAUTH_MSG.HOSTED_APPROVED, body });
  });
}
