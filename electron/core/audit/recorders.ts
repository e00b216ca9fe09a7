/**
 * What each audited channel writes to the audit log (issue 22, point 2): one recorder per
 * channel that declares an audit kind (shared/ipc/<domain>.ts), turning a successful call —
 * its argument, its answer and the caller the rules admitted — into the record(s) a manager's
 * audit of the day reads. The channel rules (electron/ipc/channel-rules.ts) call them after the
 * handler succeeded; the handlers themselves write nothing. The map is typed by the
 * declarations: a channel that declares an audit kind and has no recorder, or a recorder that
 * writes a kind its channel does not declare, does not compile.
 *
 * Money a service moved on a channel's behalf (a cart's card tender through the sale path, a
 * cancelled cart's voids) comes as `moves` and is written with the sale path's own words, as
 * if its channel had been called: a cart's card sale reads like a keyed one.
 *
 * Who: the caller as admitted (an idle lock during a slow charge does not lose who charged);
 * a step a manager approved with their PIN at someone else's counter names them in the detail
 * ("approved by Morgan with their PIN"). Simplifications: the approver is in the detail, not a
 * column of its own; a gateway sign-out does not say whether the tokens were revoked.
 */
import type {
  AuditedChannel,
  AuditKind,
  AuditKindOf,
  CartRules,
  CartView,
  DiscountChoice,
  HandlerArg,
  HandlerResults,
  PosUser,
  QueueItem,
  Role,
  SaleOutcome,
  Session,
  StoreSettings,
  TransactionView,
} from '../../../shared/ipc/contract';
import { offlinePlaceholderId } from '../../../shared/offline-ref';
import { formatMoneyDisplay as money } from '../../../shared/payments/money';
import { shortRefOf } from '../sales/clerk-records';
import { describeSettingsChange } from '../settings/store-settings';
import { tipAdjustDetail } from '../transactions/tip-adjust';

/** One record to write; `user` is the caller unless given (a sign-in names who signed in). */
export interface AuditLine<K extends AuditKind = AuditKind> {
  kind: K;
  amountCents?: number | null;
  transactionId?: string | null;
  detail?: string;
  user?: Pick<PosUser, 'id' | 'name'> | null;
}

/** The money services a channel may call on its own behalf (the cart's `money`, app-core.ts). */
export type MoneyService = 'sale:charge' | 'sale:void-partial' | 'transactions:refund' | 'transactions:void' | 'vault:charge' | 'devices:terminal-sale';
export type MoneyMove = { [S in MoneyService]: { service: S; arg: HandlerArg<S>; value: HandlerResults[S] } }[MoneyService];

export interface RecordedCall<C extends AuditedChannel> {
  arg: HandlerArg<C>;
  value: HandlerResults[C];
  /** The caller as the rules admitted them (null: nobody was signed in at that window). */
  caller: Session | null;
  moves: readonly MoneyMove[];
}

export interface Recorder<C extends AuditedChannel> {
  /** Read before the handler runs, for a detail that says what changed (settings, a user's role). */
  before?: (arg: HandlerArg<C>, caller: Session | null) => unknown;
  record: (call: RecordedCall<C>, before: unknown) => AuditLine<AuditKindOf<C>> | Array<AuditLine<AuditKindOf<C>>>;
  /** Set when the service writes these records itself, where they happen, also when no channel asked (why, in words). */
  writtenBy?: string;
}

export interface AuditRecorders {
  channels: { [C in AuditedChannel]: Recorder<C> };
  /** The records of money moved on a channel's behalf (also when the channel itself failed). */
  moves(moves: readonly MoneyMove[], caller: Session | null): AuditLine[];
}

/** What the recorders read besides the call: names, the settings and rules as they were before a change. */
export interface RecorderDeps {
  users: { list(): PosUser[]; isLockedOut(userId: string): boolean };
  settings: () => StoreSettings;
  cartRules: () => CartRules;
  /** A sale in the offline queue, by its reference. */
  queueItem: (clientRef: string) => QueueItem | null;
}

/** A recorder whose detail needs what stood before the call. */
function withBefore<C extends AuditedChannel, B>(
  before: (arg: HandlerArg<C>, caller: Session | null) => B,
  record: (call: RecordedCall<C>, before: B) => AuditLine<AuditKindOf<C>> | Array<AuditLine<AuditKindOf<C>>>,
): Recorder<C> {
  return { before, record: (call, b) => record(call, b as B) };
}

/** The service writes the channel's kinds itself (the same kinds come from events no channel asks for): nothing to write here. */
const writtenBy = <C extends AuditedChannel>(why: string): Recorder<C> => ({ writtenBy: why, record: () => [] });

const just = <C extends AuditedChannel>(record: (call: RecordedCall<C>) => AuditLine<AuditKindOf<C>> | Array<AuditLine<AuditKindOf<C>>>): Recorder<C> => ({ record });

/* ---------- money: the sale path's words ---------- */

const outcome = (approved: boolean, message: string) => (approved ? 'approved' : `declined: ${message}`);

const saleLine = (v: SaleOutcome): AuditLine<'sale'> => ({
  kind: 'sale',
  amountCents: v.transaction.amountCents,
  transactionId: v.transaction.id,
  // A check or a bank account is taken, not yet collected.
  detail: v.transaction.state === 'pending' ? 'accepted; the bank transfer is pending' : outcome(v.approved, v.message),
});

/** The step ran as another user than the caller: the manager who approved it with their PIN at the caller's counter. */
const approvedBy = (doneBy: string | null | undefined, caller: Session | null) => (doneBy && caller && doneBy !== caller.user.name ? `, approved by ${doneBy} with their PIN` : '');

const voidLine = (v: TransactionView): AuditLine<'void'> => ({ kind: 'void', amountCents: v.amountCents, transactionId: v.id, detail: 'voided before settlement' });

const refundLine = (v: HandlerResults['transactions:refund'], caller: Session | null): AuditLine<'refund'> => ({
  kind: 'refund',
  amountCents: v.refund.amountCents,
  transactionId: v.refund.id,
  detail: `${outcome(v.approved, v.message)}; refund of sale ${v.original.id}${approvedBy(v.refund.clerkName, caller)}`,
});

// A cashier's void a manager approved with their PIN (issue 21, point 12): the void is the manager's (its clerk record).
const voidSaleLine = (v: TransactionView, caller: Session | null): AuditLine<'void'> => {
  const line = voidLine(v);
  return { ...line, detail: `${line.detail}${approvedBy(v.voidedBy, caller)}` };
};

// A paid cart's card voided with a manager's PIN at a cashier's counter (issue 20): the void is the manager's (its clerk record).
const voidPartialLine = (v: TransactionView, caller: Session | null): AuditLine<'void'> => ({
  ...voidLine(v),
  detail: approvedBy(v.voidedBy, caller) ? `card payment of a paid sale voided (a return)${approvedBy(v.voidedBy, caller)}` : 'partial approval voided at the counter to start over',
});

function moveLines(moves: readonly MoneyMove[], caller: Session | null): Array<AuditLine<'sale' | 'void' | 'refund'>> {
  return moves.map((m) => {
    switch (m.service) {
      case 'sale:charge':
      case 'vault:charge':
      case 'devices:terminal-sale':
        return saleLine(m.value);
      case 'transactions:refund':
        return refundLine(m.value, caller);
      case 'transactions:void':
        return voidSaleLine(m.value, caller);
      case 'sale:void-partial':
        return voidPartialLine(m.value, caller);
    }
  });
}

/* ---------- the cart ---------- */

const discountWords = (d: DiscountChoice | null) => (d === null ? 'discount removed' : d.kind === 'percent' ? `${d.basisPoints / 100} % off` : `${money(d.cents)} off`);
const discountsOf = (v: CartView) => v.totals.lineDiscountCents + v.totals.cartDiscountCents;

export function createRecorders(deps: RecorderDeps): AuditRecorders {
  const nameOf = (id: string) => deps.users.list().find((u) => u.id === id)?.name ?? null;
  /** A manager's PIN typed with the call that the cart now holds as its discount approval: their name, in the log's words. */
  const pinApproval = (approval: { managerId: string } | undefined, v: CartView, caller: Session | null): string => {
    const name = approval ? nameOf(approval.managerId) : null;
    return name && v.discountApprovedBy === name ? approvedBy(name, caller) : '';
  };
  const discountLine = (v: CartView, detail: string): AuditLine<'discount'> => ({ kind: 'discount', amountCents: discountsOf(v), detail });
  const lineName = (v: CartView, lineId: string) => v.lines.find((l) => l.id === lineId)?.name ?? 'a line';
  /** A quantity change or a removed line that a manager's PIN let through (the discount's share grew): recorded; anything else: not. */
  const shareGrew =
    <C extends 'cart:set-quantity' | 'cart:remove-line'>(what: (arg: HandlerArg<C>) => string): Recorder<C> =>
    ({
      record: ({ arg, value, caller }) => {
        const by = pinApproval(arg.approval, value, caller);
        return by ? [discountLine(value, `${what(arg)}: the discount grew to ${value.totals.largestDiscountBasisPoints / 100} % of a line${by}`) as AuditLine<AuditKindOf<C>>] : [];
      },
    });
  const cardTender = <C extends 'cart:pay-card' | 'cart:pay-saved' | 'cart:pay-terminal'>(): Recorder<C> => ({ record: ({ moves, caller }) => moveLines(moves, caller) as Array<AuditLine<AuditKindOf<C>>> });

  const users = (id: string) => deps.users.list().find((u) => u.id === id) ?? null;
  const ROLE_WORD: Record<Role, string> = { cashier: 'cashier', manager: 'manager', installer: 'installer' };

  const channels: AuditRecorders['channels'] = {
    /* ---------- signing in ---------- */
    // UserDirectory (users.ts) writes every sign-in, sign-out and PIN change where it happens: a switch of user, the
    // idle lock, a closed window and a removed user end sessions too, and no channel asks for those.
    'auth:sign-in': writtenBy('users.ts, at every sign-in (a switch of user signs the previous one out there too)'),
    'auth:sign-out': writtenBy('users.ts, at every end of a session (sign-out, switch, idle lock, closed window, removed user)'),
    'auth:change-pin': writtenBy('users.ts, with the PIN check it belongs to'),

    /* ---------- money ---------- */
    'sale:charge': just(({ value }) => saleLine(value)),
    'devices:terminal-sale': just(({ value }) => saleLine(value)),
    'devices:check-pay': just(({ value }) => saleLine(value)),
    'vault:charge': just(({ value }) => saleLine(value)),
    'transactions:refund': just(({ value, caller }) => refundLine(value, caller)),
    'transactions:void': just(({ value, caller }) => voidSaleLine(value, caller)),
    'sale:void-partial': just(({ value, caller }) => voidPartialLine(value, caller)),
    // Issue 21, point 10b: the tip from the signed slip; a cashier's lowered tip names the manager who approved it.
    'transactions:adjust-tip': just(({ value, caller }) => ({
      kind: 'tip-adjust',
      amountCents: value.transaction.tipCents,
      transactionId: value.transaction.id,
      detail: `${tipAdjustDetail(value.previousTipCents, value.transaction)}${approvedBy(value.adjustedBy, caller)}`,
    })),
    'queue:forward-now': just(({ value }) => ({
      kind: 'offline-forward',
      amountCents: value.pendingCents,
      detail: `sent now: ${value.pendingCount} offline sale${value.pendingCount === 1 ? '' : 's'} waiting`,
    })),
    // A keep answered again (a double click, another counter) changed nothing: written once, when the sale was still unconfirmed.
    'queue:resolve-unconfirmed': withBefore(
      ({ clientRef }) => deps.queueItem(clientRef)?.acknowledged === true,
      ({ arg, value }, wasAcknowledged) =>
        wasAcknowledged
          ? []
          : {
              kind: 'offline-unconfirmed',
              amountCents: value.item.amountCents,
              transactionId: offlinePlaceholderId(arg.clientRef),
              detail: `${arg.choice === 'keep' ? 'kept: the customer was told; sent when the gateway answers' : 'cancelled: never charged'} — queued offline by ${value.item.clerkName}, the screen never said it was approved (reference ${shortRefOf(arg.clientRef)})`,
            },
    ),

    /* ---------- the cart: tenders, returns, discounts ---------- */
    'cart:pay-cash': just(({ value }) => {
      // A tender is appended: the last cash tender is this one.
      const t = [...value.tenders].reverse().find((x) => x.kind === 'cash');
      return {
        kind: 'cash-sale',
        amountCents: t?.approvedCents ?? null,
        detail: `cash: ${money(t?.tenderedCents ?? 0)} handed over, ${money(t?.changeCents ?? 0)} change; ${value.status === 'paid' ? 'the sale is paid' : `${money(value.balanceCents)} left to pay`}`,
      };
    }),
    'cart:pay-card': cardTender(),
    'cart:pay-saved': cardTender(),
    'cart:pay-terminal': cardTender(),
    'cart:cancel': just(({ value, moves, caller }) => [
      ...moveLines(moves, caller)
        .filter((l): l is AuditLine<'void' | 'refund'> => l.kind !== 'sale')
        .map((l) => ({ ...l, detail: `${l.detail}; the sale was cancelled` })),
      // A cart is cancelled once: its cash tenders given back are those it holds reversed now.
      ...value.tenders
        .filter((t) => t.kind === 'cash' && t.status === 'reversed' && t.approvedCents - t.refundedCents > 0)
        .map((t): AuditLine<'cash-refund'> => ({ kind: 'cash-refund', amountCents: t.approvedCents - t.refundedCents, detail: 'cash given back from the drawer: the sale was cancelled' })),
    ]),
    'cart:refund-lines': just(({ value, moves, caller }) => [
      ...moveLines(moves, caller)
        .filter((l): l is AuditLine<'refund'> => l.kind === 'refund')
        .map((l) => ({ ...l, detail: `${l.detail}; lines returned from a cart sale` })),
      ...(value.cashBackCents > 0 ? [{ kind: 'cash-refund' as const, amountCents: value.cashBackCents, detail: `cash given back from the drawer: lines returned (${value.message})` }] : []),
    ]),
    'cart:set-line-discount': just(({ arg, value, caller }) => discountLine(value, `${lineName(value, arg.lineId)}: ${discountWords(arg.discount)}${pinApproval(arg.approval, value, caller)}`)),
    'cart:set-cart-discount': just(({ arg, value, caller }) => discountLine(value, `whole sale: ${discountWords(arg.discount)}${pinApproval(arg.approval, value, caller)}`)),
    'cart:comp': just(({ arg, value, caller }) => discountLine(value, `comp: ${arg.lineId === undefined ? 'the whole sale' : lineName(value, arg.lineId)} given free${approvedBy(value.discountApprovedBy, caller)}`)),
    'cart:approve': just(({ value, caller }) =>
      discountLine(value, `discounts of the sale up to ${value.totals.largestDiscountBasisPoints / 100} % of a line approved${approvedBy(value.discountApprovedBy, caller) || (value.discountApprovedBy ? ` by ${value.discountApprovedBy}` : '')}`),
    ),
    'cart:set-quantity': shareGrew((a) => `quantity of a line set to ${a.quantity}`),
    'cart:remove-line': shareGrew(() => 'a line removed'),

    /* ---------- the day ---------- */
    'batches:settle': just(({ value }) => ({ kind: 'settle', detail: `batch #${value.batch.number}: ${value.message}` })),
    'reports:x': just(({ value }) => ({ kind: 'x-report', amountCents: value.allTenders?.netCents ?? value.totals.netCents, detail: 'X report read (net sales so far)' })),
    'reports:z': just(({ value }) => ({
      kind: 'z-report',
      amountCents: value.allTenders?.netCents ?? value.totals.netCents,
      detail: `Z #${value.number ?? '?'} closed the day (net sales)${value.cashCount ? `; cash counted ${money(value.cashCount.countedCents)} of ${money(value.cashCount.expectedCents)} expected (${value.cashCount.overShortCents >= 0 ? 'over' : 'short'} ${money(Math.abs(value.cashCount.overShortCents))})` : ''}`,
    })),
    'reports:print': just(({ arg, value }) => ({ kind: 'report-print', detail: `${arg.name} on ${arg.paper}${value.savedTo ? `, saved to ${value.savedTo}` : ''}` })),

    /* ---------- devices ---------- */
    'devices:terminal-save': just(({ arg, value }) => ({
      kind: 'device-change',
      detail: `terminal "${value.title}" (serial ${value.serialNumber}) ${arg.id ? 'changed' : 'added'}, at ${value.address.kind === 'tcp' ? `${value.address.host}:${value.address.port}` : JSON.stringify(value.address)}`,
    })),
    'devices:terminal-terms': just(({ arg, value }) => ({
      kind: 'device-change',
      detail: `terms set on terminal ${arg.terminalId}${arg.requireSignature ? ', signature required' : ''}: ${value.accepted ? 'accepted' : 'not accepted'} on the terminal`,
    })),
    'devices:scanner-save': just(({ arg, value }) => ({ kind: 'device-change', detail: `check scanner "${value.title}" (serial ${value.serialNumber}) ${arg.id ? 'changed' : 'added'}, at ${value.path}` })),
    'barcode:save': just(({ arg, value }) => ({ kind: 'device-change', detail: `barcode scanner "${value.name}" ${arg.id ? 'changed' : 'added'}, at ${value.path}, ${value.baud} baud` })),
    'barcode:remove': just(({ value }) => ({ kind: 'device-change', detail: `barcode scanner "${value.name}" removed (was at ${value.path})` })),
    // Issue 23: receipt printers and the drawer on their kick port.
    'printers:save': just(({ arg, value }) => ({
      kind: 'device-change',
      detail: `receipt printer "${value.name}" ${arg.id ? 'changed' : 'added'}, at ${value.address.kind === 'tcp' ? `${value.address.host}:${value.address.port}` : `${value.address.path} (${value.address.baud} baud)`}, ${value.paper}, ${value.charsPerLine} characters a line${value.active ? '' : ', not in use'}`,
    })),
    'printers:remove': just(({ value }) => ({ kind: 'device-change', detail: `receipt printer "${value.name}" removed` })),
    'printers:no-sale': just(({ value, caller }) => ({ kind: 'no-sale', detail: `cash drawer opened with no sale${approvedBy(value.approvedBy, caller)}` })),

    /* ---------- the store (issue 24) ---------- */
    'store:join': just(({ arg, value }) => ({ kind: 'store-change', detail: `this register joined the store at ${value.address ?? arg.address} as "${value.registerName ?? arg.registerName}"` })),
    // The code itself is never written down: it is a credential for 15 minutes.
    'store:invite': just(({ value }) => ({ kind: 'store-change', detail: `a one-time code for a new register was made (valid until ${new Date(value.expiresMs).toISOString()})` })),
    'store:rename-register': just(({ arg }) => ({ kind: 'store-change', detail: `register ${arg.id} renamed "${arg.name}"` })),
    'store:remove-register': just(({ arg }) => ({ kind: 'store-change', detail: `register ${arg.id} removed from the store: its credentials no longer work` })),
    'store:close-day': just(({ value }) => ({
      kind: 'store-z',
      amountCents: null,
      detail: `store day #${value.number} closed for every register${value.waitingFor.length > 0 ? `; waiting for ${value.waitingFor.join(', ')}` : ''}`,
    })),

    /* ---------- catalogue ---------- */
    'catalogue:add': just(({ value }) => ({ kind: 'catalogue-change', detail: `added ${value.name}${value.sku ? ` (SKU ${value.sku})` : ''} at ${money(value.priceCents)}` })),
    'catalogue:update': just(({ value }) => ({ kind: 'catalogue-change', detail: `changed ${value.name}${value.sku ? ` (SKU ${value.sku})` : ''}: ${money(value.priceCents)}, ${value.taxCategory}` })),
    'catalogue:archive': just(({ value }) => ({ kind: 'catalogue-change', detail: `${value.archived ? 'archived' : 'restored'} ${value.name}` })),
    'catalogue:import-csv': just(({ value }) => ({
      kind: 'catalogue-import',
      detail:
        value.imported === 0 && value.errors.length > 0
          ? `import refused: ${value.errors.length} line${value.errors.length === 1 ? '' : 's'} to fix`
          : `imported ${value.imported} row${value.imported === 1 ? '' : 's'}: ${value.added} new, ${value.updated} updated`,
    })),
    'catalogue:save-category': just(({ arg, value }) => ({ kind: 'catalogue-change', detail: `${arg.id ? 'changed' : 'added'} category ${value.name} (${value.colour})` })),
    'catalogue:archive-category': just(({ value }) => ({ kind: 'catalogue-change', detail: `${value.archived ? 'archived' : 'restored'} category ${value.name}` })),
    'catalogue:save-modifier-group': just(({ arg, value }) => ({
      kind: 'catalogue-change',
      detail: `${arg.id ? 'changed' : 'added'} modifier group ${value.name} (${value.minChoices} to ${value.maxChoices} of ${value.options.map((o) => `${o.name} ${money(o.priceCents)}`).join(', ')})`,
    })),
    'catalogue:archive-modifier-group': just(({ value }) => ({ kind: 'catalogue-change', detail: `${value.archived ? 'archived' : 'restored'} modifier group ${value.name}` })),
    'catalogue:adjust-stock': just(({ arg, value }) => ({
      kind: 'stock-count',
      detail: `${value.name}: ${arg.change.kind === 'count' ? 'counted' : 'changed'} ${value.before} → ${value.after} (${arg.reason})`,
    })),
    'catalogue:set-rules': withBefore(
      () => deps.cartRules(),
      ({ value }, before) => {
        const changed = (Object.keys(value) as Array<keyof CartRules>).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(value[k]));
        return { kind: 'settings-change', detail: changed.length === 0 ? 'cart rules saved without changes' : `cart rules: ${changed.map((k) => `${k}: ${JSON.stringify(before[k])} → ${JSON.stringify(value[k])}`).join('; ')}` };
      },
    ),

    /* ---------- saved cards, recurrings, pay links ---------- */
    'vault:add-contact': just(({ value }) => ({ kind: 'saved-card', detail: `customer ${value.name} added` })),
    'vault:add-card': just(({ value }) => ({ kind: 'saved-card', detail: `saved ${value.label}${value.expiry ? `, expires ${value.expiry}` : ''}${value.holderName ? `, for ${value.holderName}` : ''}` })),
    'vault:add-on-terminal': just(({ value }) => ({ kind: 'saved-card', detail: `saved ${value.label} read on the terminal${value.holderName ? `, for ${value.holderName}` : ''}` })),
    'vault:add-bank': just(({ value }) => ({ kind: 'saved-card', detail: `saved ${value.label}${value.holderName ? `, for ${value.holderName}` : ''}` })),
    'vault:update-expiry': just(({ value }) => ({ kind: 'saved-card', detail: `${value.label}: expires ${value.expiry ?? 'never'} now` })),
    'vault:delete': just(({ arg }) => ({ kind: 'saved-card', detail: `deleted saved card or account ${arg.id}` })),
    'recurring:create': just(({ value }) => ({
      kind: 'recurring',
      amountCents: value.amountCents,
      detail: `added for ${value.customerName}: ${value.methodLabel}, ${value.scheduleLabel.toLowerCase()}${value.installments ? `, ${value.installments} payments` : ''}`,
    })),
    'recurring:act': just(({ arg, value }) => ({
      kind: 'recurring',
      amountCents: value.amountCents,
      detail: `${arg.action === 'skip' || arg.action === 'defer' ? `${arg.action} ${arg.count} payment${arg.count === 1 ? '' : 's'}` : arg.action} for ${value.customerName}: ${value.status}`,
    })),
    'paylinks:create-link': just(({ value }) => ({ kind: 'pay-link', amountCents: value.amountCents, detail: `pay link sent to ${value.recipient}${value.description ? `: ${value.description}` : ''}` })),
    'paylinks:create-invoice': just(({ value }) => ({ kind: 'pay-link', amountCents: value.amountDueCents, detail: `invoice "${value.title}" sent to ${value.recipient}, due ${value.dueDate}` })),
    'paylinks:resend': just(({ arg }) => ({ kind: 'pay-link', detail: `${arg.kind === 'paylink' ? 'pay link' : 'invoice'} ${arg.id} sent again` })),
    'level3:save': just(({ arg }) => ({ kind: 'level3', transactionId: arg.transactionId, detail: 'Level 3 data saved to the sale' })),

    /* ---------- settings, users, keys ---------- */
    'settings:update': withBefore(
      () => deps.settings(),
      ({ value }, before) => {
        const changed = (Object.keys(value) as Array<keyof StoreSettings>).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(value[k]));
        return { kind: 'settings-change', detail: describeSettingsChange(before, value, changed) };
      },
    ),
    'paypages:set': just(({ value }) => ({ kind: 'settings-change', detail: `pay page address: ${value.address || "(the gateway's own)"}` })),
    'gateway:save': just(({ arg }) => ({
      kind: 'settings-change',
      detail: arg.kind === 'remote' ? `gateway: remote ${arg.baseUrl} as user ${arg.userId} (from the next start)` : 'gateway: the embedded engine (from the next start)',
    })),
    'gateway:oauth-finish': just(({ value }) => ({
      kind: 'settings-change',
      detail: `gateway: signed in with OAuth to ${value.saved?.kind === 'remote' ? (value.saved.baseUrl ?? 'a remote gateway') : 'the embedded engine'} as user ${value.saved?.userId ?? '?'} (from the next start)`,
    })),
    'gateway:sign-out': just(() => ({ kind: 'settings-change', detail: 'gateway: signed out; the embedded engine from the next start' })),
    // Before anyone signs in: nobody is named.
    'gateway:first-run-choose': just(({ arg }) => ({
      kind: 'settings-change',
      user: null,
      detail: arg.kind === 'embedded' ? 'first run: the embedded engine' : `first run: a remote gateway (${arg.environment}) to sign in to`,
    })),
    'users:add': just(({ arg }) => ({ kind: 'user-change', detail: `added ${arg.name} as ${ROLE_WORD[arg.role]}` })),
    'users:set-role': withBefore(
      ({ id }) => users(id),
      ({ arg }, was) => ({ kind: 'user-change', detail: !was ? `changed the role of ${arg.id}` : was.role === arg.role ? `${was.name} stays ${ROLE_WORD[arg.role]}` : `${was.name}: ${ROLE_WORD[was.role]} → ${ROLE_WORD[arg.role]}` }),
    ),
    'users:reset-pin': withBefore(
      ({ id }) => ({ user: users(id), locked: deps.users.isLockedOut(id) }),
      ({ arg }, was) => ({ kind: 'user-change', detail: `reset the PIN of ${was.user?.name ?? arg.id}${was.locked ? ' and lifted the lockout' : ''}` }),
    ),
    'users:remove': withBefore(
      ({ id }) => users(id),
      ({ arg }, was) => ({ kind: 'user-change', detail: was ? `removed ${was.name} (${ROLE_WORD[was.role]})` : `removed ${arg.id}` }),
    ),
    'keys:export': just(({ value }) => ({ kind: 'keys-backup', detail: `backed up to ${value.fileName}` })),
    'keys:restore': just(({ arg, value }) => ({ kind: 'keys-backup', detail: `restored ${value.restored} keys from ${arg.fileName}` })),
  };

  return { channels, moves: moveLines };
}
