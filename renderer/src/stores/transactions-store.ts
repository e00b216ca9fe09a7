/**
 * Today's transactions, the search for older ones, and the one selected for refund,
 * void or a receipt.
 */
import { create } from 'zustand';
import type { TransactionSearchArgs, TransactionTotals, TransactionView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { demoRowCount, syntheticTransactions } from '../dev/synthetic-transactions';
import { parseTypedAmount } from '../lib/money-format';

export type KindFilter = 'all' | 'sales' | 'refunds' | 'voids' | 'declined';

interface TransactionsState {
  mode: 'today' | 'search';
  loading: boolean;
  error: string | null;
  demo: boolean;
  today: TransactionView[];
  searchResults: TransactionView[];
  kind: KindFilter;
  text: string;
  selectedId: string | null;
  selected: TransactionView | null;
  loadToday(): Promise<void>;
  search(args: TransactionSearchArgs): Promise<string | null>;
  showToday(): void;
  setKind(kind: KindFilter): void;
  setText(text: string): void;
  select(row: TransactionView | null): void;
  refreshSelected(view: TransactionView): void;
}

export function matchesKind(r: TransactionView, kind: KindFilter): boolean {
  switch (kind) {
    case 'all':
      return true;
    case 'sales':
      return r.kind === 'sale' && r.state !== 'voided' && r.state !== 'declined';
    case 'refunds':
      return r.kind === 'refund';
    case 'voids':
      return r.state === 'voided';
    case 'declined':
      return r.state === 'declined';
  }
}

/** Filter text: four digits match the last four; an amount matches exactly. */
export function matchesText(r: TransactionView, text: string): boolean {
  const t = text.trim();
  if (!t) return true;
  if (/^\d{1,4}$/.test(t) && r.lastFour.endsWith(t)) return true;
  const cents = parseTypedAmount(t);
  if (cents !== null && /[.$]/.test(t) && r.amountCents === cents) return true;
  return r.cardBrand.toLowerCase().startsWith(t.toLowerCase()) || (r.apiId ?? '') === t;
}

export function applyFilters(rows: readonly TransactionView[], kind: KindFilter, text: string): TransactionView[] {
  if (kind === 'all' && !text.trim()) return rows as TransactionView[];
  return rows.filter((r) => matchesKind(r, kind) && matchesText(r, text));
}

export function totalsOfRows(rows: readonly TransactionView[]): TransactionTotals {
  const t: TransactionTotals = { salesCount: 0, salesCents: 0, refundsCount: 0, refundsCents: 0, voidsCount: 0, voidsCents: 0, declinedCount: 0, netCents: 0 };
  for (const r of rows) {
    if (r.state === 'declined') t.declinedCount++;
    else if (r.state === 'voided') {
      t.voidsCount++;
      t.voidsCents += r.amountCents;
    } else if (r.kind === 'sale') {
      t.salesCount++;
      t.salesCents += r.amountCents;
    } else if (r.kind === 'refund') {
      t.refundsCount++;
      t.refundsCents += r.amountCents;
    }
  }
  t.netCents = t.salesCents - t.refundsCents;
  return t;
}

export const useTransactionsStore = create<TransactionsState>((set, get) => ({
  mode: 'today',
  loading: false,
  error: null,
  demo: false,
  today: [],
  searchResults: [],
  kind: 'all',
  text: '',
  selectedId: null,
  selected: null,
  async loadToday() {
    const demo = demoRowCount();
    if (demo > 0) {
      const midnight = new Date();
      midnight.setHours(0, 0, 0, 0);
      set({ demo: true, today: syntheticTransactions(demo, Math.floor(midnight.getTime() / 1000)), loading: false, error: null });
      return;
    }
    set({ loading: true });
    const r = await ringup.transactionsToday();
    if (!r.ok) return set({ loading: false, error: r.error.message });
    const sel = get().selectedId;
    set({ loading: false, error: null, today: r.value.rows, selected: sel ? (r.value.rows.find((x) => x.id === sel) ?? get().selected) : null });
  },
  async search(args) {
    set({ loading: true });
    const r = await ringup.transactionsSearch(args);
    if (!r.ok) {
      set({ loading: false });
      return r.error.message;
    }
    set({ loading: false, error: null, mode: 'search', searchResults: r.value, selectedId: null, selected: null });
    return null;
  },
  showToday: () => set({ mode: 'today', selectedId: null, selected: null }),
  setKind: (kind) => set({ kind }),
  setText: (text) => set({ text }),
  select: (row) => set({ selectedId: row?.id ?? null, selected: row }),
  refreshSelected(view) {
    const patch = (rows: TransactionView[]) => rows.map((r) => (r.id === view.id ? view : r));
    set((s) => ({ selected: s.selectedId === view.id ? view : s.selected, today: patch(s.today), searchResults: patch(s.searchResults) }));
  },
}));
