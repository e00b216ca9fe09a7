/**
 * Recurring payments (managers): list with status, next run, amount and the next 30
 * days of runs; create from a saved card or bank account; preview and do hold / activate
 * / skip / defer. Everything goes to the gateway's /v2/recurrings; the gateway refuses what
 * its rules refuse (its sentence is passed through). Only masked numbers reach the screens.
 */
import type { HandlerMap, RecurringAction, RecurringView, UpcomingRun } from '../../../shared/ipc/contract';
import { formatMoney, parseMoney } from '../../../shared/payments/money';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { V2AccountVault, V2Contact } from '../../client/v2-types';
import { withGatewayFailure } from '../gateway/guarded-call';
import { datesUntil, previewAction, type RecurringRecord } from './recurring-preview';
import { savedMethodOf } from '../vault/vault-handlers';

export const RECURRING_MESSAGES = {
  noLocation: 'Recurring payments need the gateway location; ask a manager to set RINGUP_LOCATION_ID.',
  noProduct: 'The gateway has no merchant account for this kind of payment at this location.',
} as const;

interface V2Recurring extends RecurringRecord {
  transaction_amount: string;
  account_vault_id: string;
  active: number;
  description: string | null;
  account_vault?: V2AccountVault | null;
  contact?: V2Contact | null;
}

export interface RecurringDeps {
  client: GatewayClient;
  locationId: string | undefined;
  /** The store's date (yyyy-mm-dd); tests pin it. */
  today?: () => string;
}

type RecurringHandlers = Pick<HandlerMap, 'recurring:list' | 'recurring:create' | 'recurring:preview' | 'recurring:act'>;

const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

const UNIT = { d: ['day', 'days'], w: ['week', 'weeks'], m: ['month', 'months'] } as const;

function viewOf(r: V2Recurring): RecurringView {
  const c = r.contact;
  const name = c ? [c.first_name, c.last_name].filter((x) => x && String(x).trim()).join(' ') : '';
  const [one, many] = UNIT[r.interval_type] ?? UNIT.m;
  return {
    id: r.id,
    customerName: name || 'Customer without a name',
    methodLabel: r.account_vault ? savedMethodOf(r.account_vault).label : 'Saved method removed',
    amountCents: parseMoney(r.transaction_amount) ?? 0,
    scheduleLabel: r.interval === 1 ? `Every ${one}` : `Every ${r.interval} ${many}`,
    kind: r.recurring_type_id === 'i' ? 'installment' : 'ongoing',
    installments: r.installment_total_count ?? null,
    status: r.status,
    active: Number(r.active) === 1,
    nextRunDate: r.status === 'ended' ? null : r.next_run_date,
    endDate: r.end_date && r.end_date !== '0000-00-00' ? r.end_date : null,
    description: r.description ?? null,
  };
}

const PATH: Record<RecurringAction, string> = { hold: 'placeOnHold', activate: 'activate', skip: 'skipPayment', defer: 'deferPayment' };
const EXPAND = { expand: 'account_vault,contact' };

export function createRecurringHandlers(deps: RecurringDeps): RecurringHandlers {
  const { client } = deps;
  const today = deps.today ?? localToday;
  const guarded = <T>(fn: (locationId: string) => Promise<Result<T>>): Promise<Result<T>> =>
    withGatewayFailure(async () => (deps.locationId ? fn(deps.locationId) : fail('not_configured', RECURRING_MESSAGES.noLocation)));
  const get = async (id: string) => (await client.request<{ recurring: V2Recurring }>('GET', `/recurrings/${encodeURIComponent(id)}`, undefined, EXPAND)).recurring;

  return {
    'recurring:list': async () =>
      guarded(async (location_id) => {
        const r = await client.request<{ recurrings: V2Recurring[] }>('GET', '/recurrings', undefined, { location_id, page_size: 1000, sort: 'next_run_date', ...EXPAND });
        const list = r.recurrings ?? [];
        const from = today();
        const until = addDays(from, 30);
        const upcoming: UpcomingRun[] = [];
        for (const rec of list) {
          if (rec.status !== 'active' || Number(rec.active) !== 1) continue;
          const v = viewOf(rec);
          for (const date of datesUntil(rec, until)) if (date >= from) upcoming.push({ date, recurringId: rec.id, customerName: v.customerName, methodLabel: v.methodLabel, amountCents: v.amountCents });
        }
        upcoming.sort((a, b) => a.date.localeCompare(b.date) || a.customerName.localeCompare(b.customerName));
        const order = { active: 0, 'on hold': 1, ended: 2 } as const;
        const views = list.map(viewOf).sort((a, b) => order[a.status] - order[b.status] || (a.nextRunDate ?? '').localeCompare(b.nextRunDate ?? ''));
        return ok({ today: from, recurrings: views, upcoming });
      }),

    'recurring:create': async (a) =>
      guarded(async (location_id) => {
        const vault = await client.getVault(a.methodId);
        const loc = await client.request<{ location: { default_cc?: string | null; default_ach?: string | null } }>('GET', `/locations/${encodeURIComponent(location_id)}`);
        const pt = vault.payment_method === 'ach' ? loc.location.default_ach : loc.location.default_cc;
        if (!pt) return fail('not_configured', RECURRING_MESSAGES.noProduct);
        const body = {
          location_id,
          account_vault_id: a.methodId,
          product_transaction_id: pt,
          transaction_amount: formatMoney(a.amountCents),
          interval: a.interval,
          interval_type: a.intervalType,
          start_date: a.startDate,
          notification_days: a.notificationDays,
          ...(a.installments !== null ? { installment_total_count: a.installments } : {}),
          ...(a.description ? { description: a.description } : {}),
        };
        const created = await client.request<{ recurring: V2Recurring }>('POST', '/recurrings', { recurring: body });
        return ok(viewOf(await get(created.recurring.id)));
      }),

    'recurring:preview': async ({ id, action, count }) => guarded(async () => ok(previewAction(await get(id), action, count, today()))),

    'recurring:act': async ({ id, action, count }) =>
      guarded(async () => {
        const query: Record<string, string | number> = { ...EXPAND };
        if (action === 'skip') query.skip_count = count;
        if (action === 'defer') query.defer_count = count;
        const r = await client.request<{ recurring: V2Recurring }>('POST', `/recurrings/${encodeURIComponent(id)}/${PATH[action]}`, undefined, query);
        return ok(viewOf(r.recurring));
      }),
  };
}
