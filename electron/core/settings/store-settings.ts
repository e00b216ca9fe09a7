/**
 * Store settings (receipt header, sales tax, tips, amount guards, idle lock), kept in
 * the app database's `settings` table as one JSON value and checked with the shared
 * schema on the way in and on the way out: a value written by an older version that
 * no longer passes falls back to the defaults field by field, never to a crash.
 */
import { DEFAULT_STORE_SETTINGS, storeSettingsSchema, type StoreSettings } from '../../../shared/ipc/settings';
import { getSetting, setSetting, type PosDatabase } from '../platform/pos-database';

export const STORE_SETTINGS_KEY = 'store-settings';

export class StoreSettingsStore {
  private cached: StoreSettings | undefined;

  constructor(private readonly db: PosDatabase) {}

  get(): StoreSettings {
    this.cached ??= this.load();
    return this.cached;
  }

  /** The settings row was written by something else (the store's, pulled from the store server): read it again at the next get. */
  forget(): void {
    this.cached = undefined;
  }

  /** Saves already-validated settings; returns the names of the fields that changed. */
  save(next: StoreSettings): Array<keyof StoreSettings> {
    const parsed = storeSettingsSchema.parse(next);
    const before = this.get();
    const changed = (Object.keys(parsed) as Array<keyof StoreSettings>).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(parsed[k]));
    setSetting(this.db, STORE_SETTINGS_KEY, JSON.stringify(parsed));
    this.cached = parsed;
    return changed;
  }

  private load(): StoreSettings {
    const raw = getSetting(this.db, STORE_SETTINGS_KEY);
    if (raw === undefined) return DEFAULT_STORE_SETTINGS;
    let stored: Record<string, unknown> = {};
    try {
      const v: unknown = JSON.parse(raw);
      if (v && typeof v === 'object' && !Array.isArray(v)) stored = v as Record<string, unknown>;
    } catch {
      // unreadable: the defaults below
    }
    // Keep each stored field that is valid on its own; the defaults fill the rest.
    const merged: Record<string, unknown> = { ...DEFAULT_STORE_SETTINGS };
    const shape = storeSettingsSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
    for (const [k, v] of Object.entries(stored)) {
      if (Object.hasOwn(shape, k) && shape[k]!.safeParse(v).success) merged[k] = v;
    }
    const whole = storeSettingsSchema.safeParse(merged);
    return whole.success ? whole.data : DEFAULT_STORE_SETTINGS;
  }
}

/** "storeName, taxRateBasisPoints" → a short sentence for the audit log. */
export function describeSettingsChange(before: StoreSettings, after: StoreSettings, changed: ReadonlyArray<keyof StoreSettings>): string {
  if (changed.length === 0) return 'saved without changes';
  return changed.map((k) => `${k}: ${JSON.stringify(before[k])} → ${JSON.stringify(after[k])}`).join('; ');
}
