/**
 * The cart on the sale screen: the catalogue's quick keys and search, and the core's
 * CartView (the core is the authority for every figure; this store only shows its
 * answers). Card data never enters this store: the card form hands it straight to `payCard`.
 * A user's work, so it registers with the per-user reset.
 */
import type { Approval, CartReceiptData, CartView, CatalogueItem, Category, DiscountChoice, KeyedCard, ModifierGroup } from '../../../shared/ipc/contract';
import { needsPicker } from '../../../shared/cart/line-choice';
import { isOfflinePlaceholder } from '../../../shared/offline-ref';
import type { Result } from '../../../shared/result';
import type { GuardConfirmations } from '../../../shared/amount-guards';
import { newClientRef } from '../sales/attempt-ref';
import { ringup } from '../bridge/bridge';
import { DECLINED_BY_CASHIER, sendConfirmed, type AmountPurpose } from '../sales/amount-question-store';
import { tipCentsOf, type TipChoice } from '../sales/amount-entry';
import { useSaleStore } from '../sales/sale-store';
import { createUserStore, userEpoch } from '../auth/user-store';

/** What waits for a manager's PIN: the step is sent again with it. */
export type ApprovalFor =
  | { kind: 'discount'; target: 'cart' | string; discount: DiscountChoice | null }
  /** A comp (a line, or the whole sale when no lineId): always a manager's. */
  | { kind: 'comp'; lineId: string | undefined }
  | { kind: 'quantity'; lineId: string; quantity: number }
  | { kind: 'remove'; lineId: string }
  /** A tender was refused: the cart's discounts as they stand need the approval first. */
  | { kind: 'tender' }
  | { kind: 'cancel' };

/** The item the picker is open on (issue 23), and the variant already chosen (a scanned variant's SKU). */
export interface Picking {
  item: CatalogueItem;
  variantId: string | null;
}

/** The category tab shown: every item, one category's, or the items in none ("Other"). */
export type CategoryTab = 'all' | 'none' | string;

interface CartState {
  items: CatalogueItem[];
  /** The category tabs over the item grid, in the manager's order (issue 23). */
  categories: Category[];
  /** The modifier groups the items offer (their options, rules and prices). */
  groups: ModifierGroup[];
  category: CategoryTab;
  setCategory(tab: CategoryTab): void;
  /** The item whose variant and modifiers are being chosen; null when the picker is closed. */
  picking: Picking | null;
  /** The picker's own refusal from the core (a choice the catalogue no longer allows); null when none. */
  pickError: string | null;
  closePicker(): void;
  /** Adds the picked item with its choice; true when it went in (the picker closes). */
  addPicked(variantId: string | null, optionIds: string[]): Promise<boolean>;
  search: string;
  cart: CartView | null;
  busy: boolean;
  error: string | null;
  fieldErrors: Record<string, string[]>;
  /** The last card tender's sentence (approved, declined, partial). */
  message: string | null;
  /**
   * The offline id of the card payment this window just had approved offline (issue 20, point 3):
   * the screen acknowledges it once `message` shows; null when the last answer was anything else.
   */
  shownOffline: string | null;
  /** A card charge's idempotency key: kept across retries of the same tender, new after an answer. */
  clientRef: string;
  cardResetToken: number;
  /** The paid cart shown as a receipt until New sale. */
  receipt: CartView | null;
  /** The receipt's cashier and card details (read once the cart is paid). */
  receiptData: CartReceiptData | null;
  /** A step waiting for a manager's PIN. */
  approvalFor: ApprovalFor | null;
  /** What the last barcode scan did: the item it added, or why nothing was added. */
  scanNote: { added: boolean; text: string } | null;
  /** The tip the next card tender carries on top of its part of the balance (issue 21); none again once a tip was taken. */
  tip: TipChoice;
  setTip(tip: TipChoice): void;
  /** The chosen tip in cents, on the store's tip base of the whole sale (cart-tip.tsx shows the same offer). */
  tipCents(): number;
  load(): Promise<void>;
  /** The catalogue's items, tabs and groups read again, the cart left as it is (another register of the store changed them). */
  refreshCatalogue(): Promise<void>;
  setSearch(q: string): void;
  /** A tapped item: added at once, or the picker opens when it has sizes or modifier groups. */
  addItem(id: string): Promise<void>;
  /** A scanned code: the core adds the item with that SKU or product code. */
  addCode(code: string): Promise<void>;
  addOpen(amountCents: number): Promise<boolean>;
  setQuantity(lineId: string, quantity: number, approval?: Approval): Promise<void>;
  removeLine(lineId: string, approval?: Approval): Promise<void>;
  setDiscount(target: 'cart' | string, discount: DiscountChoice | null, approval?: Approval): Promise<void>;
  /** Gives a line (or the whole sale) away free; a cashier's waits for a manager's PIN. */
  comp(lineId: string | undefined, approval?: Approval): Promise<void>;
  /** Sends the step waiting in `approvalFor` again with the manager's PIN. */
  approve(approval: Approval): Promise<void>;
  clear(): Promise<void>;
  payCash(tenderedCents: number, amountCents?: number): Promise<void>;
  payCard(card: KeyedCard, amountCents?: number): Promise<void>;
  /** The counter's terminal for the balance or `amountCents` of it; `tipOnTerminal`: the customer picks the tip there instead. */
  payTerminal(amountCents: number | undefined, tipOnTerminal: boolean): Promise<void>;
  /** A customer's saved card (vault id) for the balance or `amountCents` of it. */
  /** `already`: the large amount the cashier confirmed on the saved card's own question. */
  paySaved(methodId: string, amountCents?: number, already?: GuardConfirmations): Promise<boolean>;
  /** Cancels the sale (a card fully approved needs a manager: their PIN as `approval`). */
  cancel(approval?: Approval): Promise<void>;
  /** A keyed sale's partial approval: the rest becomes the cart's balance. */
  adoptPartial(transactionId: string): Promise<boolean>;
  /** A due cart (Cart sales) becomes this user's cart to tender; answers the core's sentence when refused, or null. */
  collect(cartId: string): Promise<string | null>;
  /** The due cart being collected goes back to Cart sales, still due. */
  putBack(): Promise<void>;
  newSale(): Promise<void>;
}

export const useCartStore = createUserStore<CartState>((set, get) => {
  /**
   * Applies a core answer unless another user signed in meanwhile. A step the core refuses
   * for want of a manager (or for a wrong PIN given with one) waits in `approvalFor`.
   */
  async function run<T>(call: () => Promise<Result<T>>, onOk: (v: T) => void, pending?: ApprovalFor, withPin = false): Promise<boolean> {
    const epoch = userEpoch();
    set({ busy: true, error: null, fieldErrors: {} });
    const r = await call();
    if (epoch !== userEpoch()) return false;
    if (!r.ok) {
      const code = r.error.code;
      // The cashier said no to the large-amount question: nothing was sent, nothing to say.
      const declined = code === DECLINED_BY_CASHIER;
      const needs = pending !== undefined && (code === 'approval_needed' || (withPin && (code === 'approval_refused' || code === 'locked')));
      set({ busy: false, error: declined ? null : r.error.message, fieldErrors: declined || needs ? {} : (r.error.fields ?? {}), approvalFor: needs ? pending : null });
      return false;
    }
    set({ busy: false, approvalFor: null });
    onOk(r.value);
    return true;
  }
  const showCart = (cart: CartView) => {
    if (cart.status !== 'paid') return set({ cart });
    set({ cart: null, receipt: cart, receiptData: null, tip: { kind: 'none' } });
    // The receipt's cashier and card facts: read once; the receipt shows the cart meanwhile.
    void ringup.cartReceipt({ cartId: cart.id }).then((r) => {
      if (r.ok && get().receipt?.id === cart.id) set({ receiptData: r.value });
    });
  };
  const pinArg = (approval?: Approval) => (approval ? { approval } : {});
  /** The card payment just answered, when it was approved offline (its id is the offline stand-in). */
  const offlineTenderOf = (v: CartView): string | null => {
    const t = v.tenders.at(-1);
    return t && t.status === 'approved' && isOfflinePlaceholder(t.transactionId) ? t.transactionId : null;
  };
  /** After a tender: a new idempotency key, unless the outcome is unknown (a retry must reuse it) or nothing was sent (a manager must approve first). */
  const nextRef = () =>
    set((s) => ({ clientRef: s.error?.includes('did not answer') || s.approvalFor?.kind === 'tender' ? s.clientRef : newClientRef() }));
  /** A typed open amount or a card tender of `cents` (plus its tip), held to the store's guards like a keyed sale (amount-question-store); `already`: what the cashier confirmed on a question of its own (the saved card's). */
  const confirmed = <T>(cents: number, send: (c: GuardConfirmations) => Promise<Result<T>>, purpose: AmountPurpose = 'charge', tipCents = 0, already?: GuardConfirmations) =>
    sendConfirmed({ subtotalCents: cents, tipCents, totalCents: cents + tipCents }, (c) => send(Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined))), purpose, already);
  /** After a card answer: a tip that went with an approved card is not offered again on the rest. */
  const tipTaken = (v: CartView) => {
    if ((v.tenders.at(-1)?.tipCents ?? 0) > 0) set({ tip: { kind: 'none' } });
  };
  /** What a card tender asks for: the typed part, or the whole balance. */
  const tenderCents = (amountCents: number | undefined) => amountCents ?? get().cart?.balanceCents ?? 0;

  return {
    items: [],
    categories: [],
    groups: [],
    category: 'all',
    setCategory: (category) => set({ category }),
    picking: null,
    pickError: null,
    closePicker: () => set({ picking: null, pickError: null }),
    async addPicked(variantId, optionIds) {
      const p = get().picking;
      if (!p) return false;
      const epoch = userEpoch();
      set({ busy: true, pickError: null });
      const r = await ringup.cartAddItem({ itemId: p.item.id, quantity: 1, choice: { variantId, optionIds } });
      if (epoch !== userEpoch()) return false;
      if (!r.ok) {
        set({ busy: false, pickError: r.error.fields?.choice?.[0] ?? r.error.message });
        return false;
      }
      set({ busy: false, cart: r.value, picking: null, pickError: null, message: null, scanNote: null, error: null });
      return true;
    },
    search: '',
    cart: null,
    busy: false,
    error: null,
    fieldErrors: {},
    message: null,
    shownOffline: null,
    clientRef: newClientRef(),
    cardResetToken: 0,
    receipt: null,
    receiptData: null,
    approvalFor: null,
    scanNote: null,
    tip: { kind: 'none' },
    setTip: (tip) => set({ tip }),
    tipCents() {
      const { cart, tip } = get();
      const config = useSaleStore.getState().config;
      if (!cart || !config?.tipEnabled) return 0;
      return tipCentsOf(cart.totals.subtotalCents, cart.totals.taxCents, tip, config.tipRules.tipBase);
    },
    async load() {
      const epoch = userEpoch();
      // The tabs and the groups are asked for alongside, but the items and the cart are shown as soon as
      // they come: the sale screen takes scans from the moment it has items (use-wedge-scanner.ts).
      const first = Promise.all([ringup.catalogueList({ includeArchived: false, search: '' }), ringup.cartCurrent()]);
      const extras = Promise.all([ringup.catalogueCategories({ includeArchived: false }), ringup.catalogueModifierGroups({ includeArchived: false })]);
      const [items, cart] = await first;
      if (epoch !== userEpoch()) return;
      set({ items: items.ok ? items.value : [], cart: cart.ok ? cart.value : null, error: cart.ok ? null : cart.error.message });
      const [categories, groups] = await extras;
      if (epoch !== userEpoch()) return;
      const cats = categories.ok ? categories.value : [];
      set((s) => ({
        categories: cats,
        groups: groups.ok ? groups.value : [],
        // A category archived meanwhile: back to All.
        category: s.category === 'all' || s.category === 'none' || cats.some((c) => c.id === s.category) ? s.category : 'all',
      }));
    },
    async refreshCatalogue() {
      const epoch = userEpoch();
      const [items, categories, groups] = await Promise.all([
        ringup.catalogueList({ includeArchived: false, search: '' }),
        ringup.catalogueCategories({ includeArchived: false }),
        ringup.catalogueModifierGroups({ includeArchived: false }),
      ]);
      if (epoch !== userEpoch()) return;
      set(() => ({
        ...(items.ok ? { items: items.value } : {}),
        ...(categories.ok ? { categories: categories.value } : {}),
        ...(groups.ok ? { groups: groups.value } : {}),
      }));
    },
    setSearch: (search) => set({ search, scanNote: null }),
    // A new line starts a new story: the last sale's sentence (cancelled, approved) goes.
    async addItem(itemId) {
      const item = get().items.find((i) => i.id === itemId);
      // Sizes or modifier groups: the picker asks first (the core checks the choice again).
      if (item && needsPicker(item)) return set({ picking: { item, variantId: item.variants.length === 1 ? item.variants[0]!.id : null }, pickError: null, scanNote: null });
      await run(() => ringup.cartAddItem({ itemId, quantity: 1 }), (v) => set({ cart: v, message: null, scanNote: null }));
    },
    // Its own note, not `error`: a code no item has is said beside the search field, where the scan is expected.
    async addCode(code) {
      const epoch = userEpoch();
      const r = await ringup.cartAddCode({ code });
      if (epoch !== userEpoch()) return;
      if (!r.ok) return set({ scanNote: { added: false, text: r.error.fields?.code?.[0] ?? r.error.message } });
      const lc = code.toLowerCase();
      const { pick, ...cart } = r.value;
      if (pick) {
        // The code named the item (or its size) but a choice is still needed: the picker opens on it.
        const item = get().items.find((i) => i.id === pick.itemId);
        if (item) return set({ cart, picking: { item, variantId: pick.variantId }, pickError: null, scanNote: { added: true, text: `Scanned: ${item.name}; choose before it is added.` } });
      }
      const item = get().items.find((i) => i.sku.toLowerCase() === lc || i.productCode.toLowerCase() === lc);
      const variant = get().items.flatMap((i) => i.variants.map((v) => ({ i, v }))).find(({ v }) => v.sku.toLowerCase() === lc);
      const name = item?.name ?? (variant ? `${variant.i.name} ${variant.v.name}` : code);
      set({ cart, message: null, scanNote: { added: true, text: `Scanned: ${name} added.` } });
    },
    addOpen: (amountCents) =>
      run(() => confirmed(amountCents, (c) => ringup.cartAddOpen({ name: 'Open amount', amountCents, taxCategory: 'standard', ...c }), 'add'), (v) => set({ cart: v, message: null })),
    setQuantity: async (lineId, quantity, approval) =>
      void (await run(() => ringup.cartSetQuantity({ lineId, quantity, ...pinArg(approval) }), showCart, { kind: 'quantity', lineId, quantity }, approval !== undefined)),
    removeLine: async (lineId, approval) =>
      void (await run(() => ringup.cartRemoveLine({ lineId, ...pinArg(approval) }), showCart, { kind: 'remove', lineId }, approval !== undefined)),
    setDiscount: async (target, discount, approval) =>
      void (await run(
        () => (target === 'cart' ? ringup.cartSetCartDiscount({ discount, ...pinArg(approval) }) : ringup.cartSetLineDiscount({ lineId: target, discount, ...pinArg(approval) })),
        showCart,
        { kind: 'discount', target, discount },
        approval !== undefined,
      )),
    comp: async (lineId, approval) =>
      void (await run(
        () => ringup.cartComp({ ...(lineId !== undefined ? { lineId } : {}), ...pinArg(approval) }),
        (v) => {
          // A comp that leaves nothing to pay closed the sale: the Paid screen says why it took no payment.
          set({ message: v.status === 'paid' ? `Comped: nothing to pay. Approved by ${v.discountApprovedBy ?? 'a manager'}.` : null });
          showCart(v);
        },
        { kind: 'comp', lineId },
        approval !== undefined,
      )),
    async approve(approval) {
      const p = get().approvalFor;
      if (!p) return;
      if (p.kind === 'comp') return get().comp(p.lineId, approval);
      if (p.kind === 'discount') return get().setDiscount(p.target, p.discount, approval);
      if (p.kind === 'quantity') return get().setQuantity(p.lineId, p.quantity, approval);
      if (p.kind === 'remove') return get().removeLine(p.lineId, approval);
      if (p.kind === 'cancel') return get().cancel(approval);
      await run(() => ringup.cartApprove({ approval }), (v) => {
        set({ message: `Approved by ${v.discountApprovedBy ?? 'the manager'}: take the payment again.` });
        showCart(v);
      }, p, true);
    },
    clear: async () => void (await run(() => ringup.cartClear(), showCart)),
    payCash: async (tenderedCents, amountCents) =>
      void (await run(() => ringup.cartPayCash({ tenderedCents, ...(amountCents !== undefined ? { amountCents } : {}) }), (v) => {
        set({ message: null });
        showCart(v);
      }, { kind: 'tender' })),
    async payCard(card, amountCents) {
      const clientRef = get().clientRef;
      const tipCents = get().tipCents();
      await run(
        () => confirmed(tenderCents(amountCents), (c) => ringup.cartPayCard({ card, clientRef, tipCents, ...(amountCents !== undefined ? { amountCents } : {}), ...c }), 'charge', tipCents),
        (v) => {
          set({ message: v.message, shownOffline: offlineTenderOf(v) });
          tipTaken(v);
          showCart(v);
        },
        { kind: 'tender' },
      );
      // The gateway answered (or refused before charging): the next card is a new tender; the card
      // stays typed while a manager's approval is asked first (nothing was sent).
      if (get().approvalFor?.kind !== 'tender') set((s) => ({ cardResetToken: s.cardResetToken + 1 }));
      nextRef();
    },
    async payTerminal(amountCents, tipOnTerminal) {
      const clientRef = get().clientRef;
      // A tip the customer picks on the terminal is not known yet: the guards see the amount before it (as the core's do).
      const tipCents = tipOnTerminal ? null : get().tipCents();
      await run(
        () => confirmed(tenderCents(amountCents), (c) => ringup.cartPayTerminal({ clientRef, tipCents, ...(amountCents !== undefined ? { amountCents } : {}), ...c }), 'charge', tipCents ?? 0),
        (v) => {
          set({ message: v.message, shownOffline: offlineTenderOf(v) });
          tipTaken(v);
          showCart(v);
        },
        { kind: 'tender' },
      );
      nextRef();
    },
    async paySaved(methodId, amountCents, already) {
      const clientRef = get().clientRef;
      const tipCents = get().tipCents();
      const done = await run(
        () => confirmed(tenderCents(amountCents), (c) => ringup.cartPaySaved({ methodId, clientRef, tipCents, ...(amountCents !== undefined ? { amountCents } : {}), ...c }), 'charge', tipCents, already),
        (v) => {
          set({ message: v.message, shownOffline: offlineTenderOf(v) });
          tipTaken(v);
          showCart(v);
        },
        { kind: 'tender' },
      );
      nextRef();
      return done;
    },
    cancel: async (approval) =>
      void (await run(() => ringup.cartCancel({ confirmed: true, ...pinArg(approval) }), () => {
        set({ cart: null, message: 'The sale was cancelled; payments taken were given back.' });
        void get().load();
      }, { kind: 'cancel' }, approval !== undefined)),
    adoptPartial: (transactionId) => run(() => ringup.cartAdoptPartial({ transactionId }), showCart),
    async collect(cartId) {
      const epoch = userEpoch();
      const r = await ringup.cartCollect({ cartId });
      if (epoch !== userEpoch()) return null;
      if (!r.ok) return r.error.message;
      set({ cart: r.value, receipt: null, receiptData: null, message: null, error: null, approvalFor: null });
      return null;
    },
    putBack: async () =>
      void (await run(() => ringup.cartPutBack(), (v) => {
        set({ cart: v, message: 'The sale went back to Cart sales; what is due stays due.' });
      })),
    async newSale() {
      set({ receipt: null, receiptData: null, message: null, error: null });
      await get().load();
    },
  };
});

// Another register of the store changed the catalogue or stock (issue 24): the sale screen follows at once (a
// register that joined a store with its catalogue still empty gets its first items this way too).
ringup.on('catalogue:changed', () => void useCartStore.getState().refreshCatalogue());
