/**
 * The cart on the sale screen: the catalogue's quick keys and search, and the core's
 * CartView (the core is the authority for every figure; this store only shows its
 * answers). Card data never enters this store: the card form hands it straight to `payCard`.
 * A user's work, so it registers with the per-user reset.
 */
import type { CartView, CatalogueItem, Discount, KeyedCard } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/result';
import { ringup } from '../bridge/bridge';
import { DECLINED_BY_CASHIER, sendConfirmed, type AmountPurpose } from './amount-question-store';
import { createUserStore, userEpoch } from './user-store';

interface CartState {
  items: CatalogueItem[];
  search: string;
  cart: CartView | null;
  busy: boolean;
  error: string | null;
  fieldErrors: Record<string, string[]>;
  /** The last card tender's sentence (approved, declined, partial). */
  message: string | null;
  /** A card charge's idempotency key: kept across retries of the same tender, new after an answer. */
  clientRef: string;
  cardResetToken: number;
  /** The paid cart shown as a receipt until New sale. */
  receipt: CartView | null;
  /** A discount waiting for a manager's PIN. */
  approvalFor: { target: 'cart' | string; discount: Discount | null } | null;
  load(): Promise<void>;
  setSearch(q: string): void;
  addItem(id: string): Promise<void>;
  addOpen(amountCents: number): Promise<boolean>;
  setQuantity(lineId: string, quantity: number): Promise<void>;
  removeLine(lineId: string): Promise<void>;
  setDiscount(target: 'cart' | string, discount: Discount | null, approval?: { managerId: string; pin: string }): Promise<void>;
  clear(): Promise<void>;
  payCash(tenderedCents: number, amountCents?: number): Promise<void>;
  payCard(card: KeyedCard, amountCents?: number): Promise<void>;
  /** The counter's terminal for the balance or `amountCents` of it. */
  payTerminal(amountCents?: number): Promise<void>;
  /** A customer's saved card (vault id) for the balance or `amountCents` of it. */
  paySaved(methodId: string, amountCents?: number): Promise<boolean>;
  cancel(): Promise<void>;
  /** A keyed sale's partial approval: the rest becomes the cart's balance. */
  adoptPartial(transactionId: string): Promise<boolean>;
  newSale(): Promise<void>;
}

export const useCartStore = createUserStore<CartState>((set, get) => {
  /** Applies a core answer unless another user signed in meanwhile. */
  async function run<T>(call: () => Promise<Result<T>>, onOk: (v: T) => void): Promise<boolean> {
    const epoch = userEpoch();
    set({ busy: true, error: null, fieldErrors: {} });
    const r = await call();
    if (epoch !== userEpoch()) return false;
    if (!r.ok) {
      // The cashier said no to the large-amount question: nothing was sent, nothing to say.
      const declined = r.error.code === DECLINED_BY_CASHIER;
      set({ busy: false, error: declined ? null : r.error.message, fieldErrors: declined ? {} : (r.error.fields ?? {}) });
      return false;
    }
    onOk(r.value);
    set({ busy: false });
    return true;
  }
  const showCart = (cart: CartView) => set(cart.status === 'paid' ? { cart: null, receipt: cart } : { cart });
  /** A typed open amount or a card tender of `cents`, held to the store's guards like a keyed sale (amount-question-store). */
  const confirmed = <T>(cents: number, send: (c: { confirmedCents?: number }) => Promise<Result<T>>, purpose: AmountPurpose = 'charge') =>
    sendConfirmed({ subtotalCents: cents, tipCents: 0, totalCents: cents }, (c) => send(c.confirmedCents !== undefined ? { confirmedCents: c.confirmedCents } : {}), purpose);
  /** What a card tender asks for: the typed part, or the whole balance. */
  const tenderCents = (amountCents: number | undefined) => amountCents ?? get().cart?.balanceCents ?? 0;

  return {
    items: [],
    search: '',
    cart: null,
    busy: false,
    error: null,
    fieldErrors: {},
    message: null,
    clientRef: crypto.randomUUID(),
    cardResetToken: 0,
    receipt: null,
    approvalFor: null,
    async load() {
      const epoch = userEpoch();
      const [items, cart] = await Promise.all([ringup.catalogueList({ includeArchived: false, search: '' }), ringup.cartCurrent()]);
      if (epoch !== userEpoch()) return;
      set({ items: items.ok ? items.value : [], cart: cart.ok ? cart.value : null, error: cart.ok ? null : cart.error.message });
    },
    setSearch: (search) => set({ search }),
    addItem: async (itemId) => void (await run(() => ringup.cartAddItem({ itemId, quantity: 1 }), showCart)),
    addOpen: (amountCents) => run(() => confirmed(amountCents, (c) => ringup.cartAddOpen({ name: 'Open amount', amountCents, taxCategory: 'standard', ...c }), 'add'), showCart),
    setQuantity: async (lineId, quantity) => void (await run(() => ringup.cartSetQuantity({ lineId, quantity }), showCart)),
    removeLine: async (lineId) => void (await run(() => ringup.cartRemoveLine({ lineId }), showCart)),
    async setDiscount(target, discount, approval) {
      const call = () =>
        target === 'cart'
          ? ringup.cartSetCartDiscount({ discount, ...(approval ? { approval } : {}) })
          : ringup.cartSetLineDiscount({ lineId: target, discount, ...(approval ? { approval } : {}) });
      const epoch = userEpoch();
      set({ busy: true, error: null });
      const r = await call();
      if (epoch !== userEpoch()) return;
      if (!r.ok) {
        const needs = r.error.code === 'approval_needed' || (approval !== undefined && r.error.code === 'approval_refused');
        set({ busy: false, error: r.error.message, approvalFor: needs ? { target, discount } : null });
        return;
      }
      set({ busy: false, approvalFor: null });
      showCart(r.value);
    },
    clear: async () => void (await run(() => ringup.cartClear(), showCart)),
    payCash: async (tenderedCents, amountCents) =>
      void (await run(() => ringup.cartPayCash({ tenderedCents, ...(amountCents !== undefined ? { amountCents } : {}) }), (v) => {
        set({ message: null });
        showCart(v);
      })),
    async payCard(card, amountCents) {
      const clientRef = get().clientRef;
      await run(
        () => confirmed(tenderCents(amountCents), (c) => ringup.cartPayCard({ card, clientRef, ...(amountCents !== undefined ? { amountCents } : {}), ...c })),
        (v) => {
          set({ message: v.message });
          showCart(v);
        },
      );
      // The gateway answered (or refused before charging): the next card is a new tender. An unknown outcome keeps the ref.
      set((s) => ({ cardResetToken: s.cardResetToken + 1, clientRef: s.error?.includes('did not answer') ? s.clientRef : crypto.randomUUID() }));
    },
    async payTerminal(amountCents) {
      const clientRef = get().clientRef;
      await run(
        () => confirmed(tenderCents(amountCents), (c) => ringup.cartPayTerminal({ clientRef, ...(amountCents !== undefined ? { amountCents } : {}), ...c })),
        (v) => {
          set({ message: v.message });
          showCart(v);
        },
      );
      set((s) => ({ clientRef: s.error?.includes('did not answer') ? s.clientRef : crypto.randomUUID() }));
    },
    async paySaved(methodId, amountCents) {
      const clientRef = get().clientRef;
      const done = await run(
        () => confirmed(tenderCents(amountCents), (c) => ringup.cartPaySaved({ methodId, clientRef, ...(amountCents !== undefined ? { amountCents } : {}), ...c })),
        (v) => {
          set({ message: v.message });
          showCart(v);
        },
      );
      set((s) => ({ clientRef: s.error?.includes('did not answer') ? s.clientRef : crypto.randomUUID() }));
      return done;
    },
    cancel: async () =>
      void (await run(() => ringup.cartCancel({ confirmed: true }), () => {
        set({ cart: null, message: 'The sale was cancelled; payments taken were given back.' });
        void get().load();
      })),
    adoptPartial: (transactionId) => run(() => ringup.cartAdoptPartial({ transactionId }), showCart),
    async newSale() {
      set({ receipt: null, message: null, error: null });
      await get().load();
    },
  };
});
