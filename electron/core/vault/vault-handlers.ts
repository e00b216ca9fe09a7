/**
 * Saved payment methods: customers (gateway contacts) with their account vaults. Adding,
 * updating and deleting need a manager; listing and charging a saved method need a
 * signed-in user (the sale screen). Card and bank numbers arrive once, go into the
 * gateway request and are dropped; what comes back (and goes to the screens) is masked.
 * A refused delete (e.g. a recurring payment uses the method) passes the gateway's own
 * sentence through.
 */
import type { GuardSettings } from '../../../shared/amount-guards';
import type { ContactView, HandlerMap, SavedMethod, Session } from '../../../shared/ipc/contract';
import { formatMoney } from '../../../shared/payments/money';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { V2AccountVault, V2Contact, V2Transaction, V2TransactionCreate } from '../../client/v2-types';
import { failureOf, type LostPayments } from '../sales/lost-payments';
import type { DevicesExtras } from '../devices/devices';
import { refuseAmount } from '../sales/amount-refusal';
import { brandLabel } from '../sales/card-brand';
import { clerkNumberOf, type ClerkRecords } from '../sales/clerk-records';
import { withGatewayFailure } from '../gateway/guarded-call';
import { callerSession } from '../../ipc/channel-rules';
import { toView } from '../transactions/transaction-view';
import type { TenderRefs } from '../cart/tender-refs';

export const VAULT_MESSAGES = {
  noLocation: 'Saved cards need the gateway location; ask a manager to set RINGUP_LOCATION_ID.',
  walkIn: 'Customers without a name',
  bankAccepted: 'Bank payment accepted. It takes a few days to clear.',
  noTerminal: 'No payment terminal is set up here. Key the card instead.',
  outcomeUnknown: 'The payment gateway did not answer, so it is not known yet whether the card was charged. Charge it again: the same charge is sent, and the card is never charged twice.',
} as const;

export interface VaultDeps {
  client: GatewayClient;
  locationId: string | undefined;
  productTransactionId: string | undefined;
  /** The store's amount guards (hard cap, confirmation threshold, tip share), read on every charge. */
  guards: () => GuardSettings;
  /** Who charged which saved method (the app's clerk records, shared with sales.ts). */
  clerks: ClerkRecords;
  /** Reads a card on the counter's terminal into a vault (devices.ts); absent when no devices are wired. */
  storeCardOnTerminal?: DevicesExtras['storeCardOnTerminal'];
  /** Makes and binds every transaction_api_id (issue 20, point 2): the screen's clientRef is only an attempt id. */
  refs: TenderRefs;
  /** Payments whose answer is not known, on disk with their cashier before they leave (issue 20, point 3). */
  lost: LostPayments;
}

type VaultHandlers = Pick<HandlerMap, 'vault:contacts' | 'vault:add-contact' | 'vault:add-card' | 'vault:add-on-terminal' | 'vault:add-bank' | 'vault:update-expiry' | 'vault:delete' | 'vault:charge'>;

function expiryText(exp: string | null | undefined): string | null {
  return exp && /^\d{4}$/.test(exp) ? `${exp.slice(0, 2)}/${exp.slice(2)}` : null;
}

export function savedMethodOf(v: V2AccountVault): SavedMethod {
  const bank = v.payment_method === 'ach';
  const lastFour = (v.last_four ?? '').slice(-4);
  const kindLabel = bank ? (v.account_type === 'savings' ? 'Savings' : 'Checking') : brandLabel(v.account_type, v.first_six);
  return {
    id: v.id,
    kind: bank ? 'bank' : 'card',
    label: `${kindLabel} •••• ${lastFour}`,
    lastFour,
    expiry: bank ? null : expiryText(v.exp_date),
    expiringInMonths: bank ? null : (v.expiring_in_months ?? null),
    holderName: v.account_holder_name ?? null,
    contactId: v.contact_id ?? null,
  };
}

function contactName(c: V2Contact): string {
  return [c.first_name, c.last_name].filter((x) => x && x.trim()).join(' ') || 'Unnamed customer';
}

export function createVaultHandlers(deps: VaultDeps): VaultHandlers {
  const { client } = deps;

  // Who may call each channel (managers keep the saved cards; the counter charges them) is declared in vault.ts and enforced by the channel rules.
  const guarded = <T>(fn: (locationId: string, session: Session) => Promise<Result<T>>): Promise<Result<T>> =>
    withGatewayFailure(async () => (deps.locationId ? fn(deps.locationId, callerSession()) : fail('not_configured', VAULT_MESSAGES.noLocation)));

  return {
    'vault:contacts': async ({ text }) =>
      guarded(async (location_id) => {
        const [contacts, vaults] = await Promise.all([client.listContacts({ location_id }), client.listVaults({ location_id })]);
        const byContact = new Map<string, SavedMethod[]>();
        const loose: SavedMethod[] = [];
        for (const v of vaults) {
          const m = savedMethodOf(v);
          if (m.contactId) byContact.set(m.contactId, [...(byContact.get(m.contactId) ?? []), m]);
          else loose.push(m);
        }
        const needle = text.trim().toLowerCase();
        const views: ContactView[] = contacts
          .map((c) => ({ id: c.id, name: contactName(c), email: c.email ?? null, methods: byContact.get(c.id) ?? [] }))
          .filter((c) => !needle || c.name.toLowerCase().includes(needle) || (c.email ?? '').toLowerCase().includes(needle) || c.methods.some((m) => m.lastFour === needle))
          .sort((a, b) => a.name.localeCompare(b.name));
        if (loose.length > 0 && (!needle || loose.some((m) => m.lastFour === needle))) views.push({ id: 'none', name: VAULT_MESSAGES.walkIn, email: null, methods: loose });
        return ok(views);
      }),

    'vault:add-contact': async ({ firstName, lastName, email }) =>
      guarded(async (location_id) => {
        const c = await client.createContact({ location_id, last_name: lastName, ...(firstName ? { first_name: firstName } : {}), ...(email ? { email } : {}) });
        return ok({ id: c.id, name: contactName(c), email: c.email ?? null, methods: [] });
      }),

    'vault:add-card': async ({ contactId, holderName, number, expiry }) =>
      guarded(async (location_id) => {
        const v = await client.createVault({
          location_id,
          payment_method: 'cc',
          contact_id: contactId,
          account_number: number,
          exp_date: expiry,
          ...(holderName ? { account_holder_name: holderName } : {}),
        });
        return ok(savedMethodOf(v));
      }),

    'vault:add-on-terminal': async ({ contactId }) =>
      guarded(async () => {
        if (!deps.storeCardOnTerminal) return fail('no_terminal', VAULT_MESSAGES.noTerminal);
        const r = await deps.storeCardOnTerminal(contactId);
        return r.ok ? ok(savedMethodOf(r.value)) : r;
      }),

    'vault:add-bank': async ({ contactId, holderName, routing, account, accountType, isCompany }) =>
      guarded(async (location_id) => {
        const v = await client.createVault({
          location_id,
          payment_method: 'ach',
          contact_id: contactId,
          account_holder_name: holderName,
          account_number: account,
          routing,
          account_type: accountType,
          is_company: isCompany ? 1 : 0,
        });
        return ok(savedMethodOf(v));
      }),

    'vault:update-expiry': async ({ id, expiry }) => guarded(async () => ok(savedMethodOf(await client.updateVault(id, { exp_date: expiry })))),

    'vault:delete': async ({ id }) =>
      guarded(async () => {
        await client.deleteVault(id);
        return ok(null);
      }),

    'vault:charge': async ({ id, subtotalCents, taxCents, tipCents, clientRef, confirmedCents, confirmedTipCents }) =>
      guarded(async (location_id, session) => {
        const total = subtotalCents + taxCents + tipCents;
        // The store's guards, as on the keyed sale: before the saved method is even read.
        const refused = refuseAmount(deps.guards(), { subtotalCents, tipCents, totalCents: total }, { confirmedCents, confirmedTipCents });
        if (refused) return refused;
        const vault = await client.getVault(id);
        const bank = vault.payment_method === 'ach';
        // The core's reference, bound to this saved method and amount before the request leaves (tender-refs.ts).
        const tender = { amountCents: subtotalCents + taxCents, tipCents, method: bank ? 'ach' : 'cc', action: bank ? 'debit' : 'sale', instrument: `vault:${id}` } as const;
        const handed = deps.refs.handedDown(tender);
        if (!handed.ok) return handed;
        const answerOf = (t: V2Transaction) => {
          const view = deps.clerks.saleBy(toView(t), session);
          const approved = view.state === 'approved' || (bank && view.state === 'pending');
          return ok({ approved, message: bank && view.state === 'pending' ? VAULT_MESSAGES.bankAccepted : view.message, transaction: view });
        };
        const made = handed.value !== null ? { ok: true as const, value: handed.value } : deps.refs.refFor(session, { scope: 'sale', attempt: clientRef, ...tender });
        if (!made.ok) {
          // This screen's own retry of a charge the core found after its answer was lost: that answer, once (lost-payments.ts).
          const again = made.error.code === 'already_answered' ? await deps.lost.answerForRetry(session, { scope: 'sale', attempt: clientRef, ...tender }) : null;
          return again ? answerOf(again.transaction) : made;
        }
        const ref = made.value;
        const request: V2TransactionCreate = {
          action: bank ? 'debit' : 'sale',
          payment_method: bank ? 'ach' : 'cc',
          location_id,
          ...(!bank && deps.productTransactionId ? { product_transaction_id: deps.productTransactionId } : {}),
          transaction_amount: formatMoney(total),
          ...(taxCents > 0 ? { tax: formatMoney(taxCents) } : {}),
          ...(tipCents > 0 ? { tip_amount: formatMoney(tipCents) } : {}),
          account_vault_id: id,
          transaction_api_id: ref,
          clerk_number: clerkNumberOf(session.user.id),
        };
        // On disk with its cashier before it leaves: a lost answer is resumed after a restart too (lost-payments.ts).
        deps.lost.sending(ref, { way: 'saved', session, amountCents: total });
        let t: V2Transaction;
        try {
          t = await client.createTransaction(request);
        } catch (err) {
          if (failureOf(err) !== 'lost') {
            deps.lost.answered(ref); // refused, or never left: nothing is unknown
            throw err;
          }
          // The answer was lost: the transaction_api_id finds out whether the charge went through. No
          // record yet proves nothing (the request may still land): it stays unknown, the core keeps asking
          // (and sends it again within the re-send window: the same sale at the gateway, never a second one).
          const found = await deps.lost.lostThenLookup(ref, session, request);
          if (!found) return fail('outcome_unknown', VAULT_MESSAGES.outcomeUnknown);
          return found.kind === 'refused' ? found.result : answerOf(found.transaction);
        }
        // An answer that is not this tender is never counted (and voided when it is a charge made for it).
        return deps.lost.counted(ref, t, session, answerOf);
      }),
  };
}
