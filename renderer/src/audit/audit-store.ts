/** The audit log screen's filters and the page on screen (a user store: the next person starts unfiltered). */
import type { AuditKind, AuditListArgs, AuditPage } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { createUserStore, userEpoch } from '../auth/user-store';

export interface AuditFilters {
  userId: string;
  kind: AuditKind | '';
  /** `<input type="date">` values. */
  from: string;
  to: string;
}

interface AuditState {
  filters: AuditFilters;
  page: AuditPage | null;
  loading: boolean;
  error: string | null;
  setFilters(patch: Partial<AuditFilters>): void;
  load(args: AuditListArgs): Promise<void>;
}

export const NO_AUDIT_FILTERS: AuditFilters = { userId: '', kind: '', from: '', to: '' };

export const useAuditStore = createUserStore<AuditState>((set) => ({
  filters: NO_AUDIT_FILTERS,
  page: null,
  loading: false,
  error: null,
  setFilters: (patch) => set((s) => ({ filters: { ...s.filters, ...patch } })),
  async load(args) {
    const epoch = userEpoch();
    set({ loading: true });
    const r = await ringup.auditList(args);
    if (epoch !== userEpoch()) return;
    set(r.ok ? { page: r.value, loading: false, error: null } : { loading: false, error: r.error.message });
  },
}));
