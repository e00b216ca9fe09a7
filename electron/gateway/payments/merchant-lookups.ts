/**
 * The few facts the payment resources read from the merchant module's tables
 * (product transactions, location defaults, contacts, recurrings), in one place so the
 * coupling to another module's schema is visible. Product transactions are cached
 * briefly because every sale needs one and they change rarely.
 */
import type { EngineContext } from '../framework/context';
import type { Row } from '../framework/resource';

export interface ProductTransaction {
  id: string;
  location_id: string;
  payment_method: 'cc' | 'ach';
  auto_decline_cvv: boolean;
  auto_decline_zip: boolean;
  auto_decline_street: boolean;
  allow_partial_authorization: boolean;
  level3_allow: boolean;
  title: string;
}

export interface ContactInfo {
  id: string;
  location_id: string;
  email: string | null;
  email_trx_receipt: boolean;
  first_name: string | null;
  last_name: string | null;
}

const truthy = (v: unknown) => v === 1 || v === true || v === '1' || v === 'true';
const TTL_MS = 10_000;

export class MerchantLookups {
  private readonly ptCache = new Map<string, { at: number; pt: ProductTransaction | undefined }>();
  private readonly defaultCache = new Map<string, { at: number; id: string | undefined }>();

  constructor(private readonly ctx: EngineContext) {}

  private safeGet(sql: string, ...params: unknown[]): Row | undefined {
    try {
      return this.ctx.stmt(sql).get(...params) as Row | undefined;
    } catch {
      return undefined; // the merchant table is absent (tests running the payments module alone)
    }
  }

  productTransaction(id: string): ProductTransaction | undefined {
    const hit = this.ptCache.get(id);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.pt;
    const r = this.safeGet('SELECT * FROM product_transactions WHERE id = ?', id);
    const pt: ProductTransaction | undefined = r
      ? {
          id: String(r.id),
          location_id: String(r.location_id),
          payment_method: r.payment_method === 'ach' ? 'ach' : 'cc',
          auto_decline_cvv: truthy(r.auto_decline_cvv),
          auto_decline_zip: truthy(r.auto_decline_zip),
          auto_decline_street: truthy(r.auto_decline_street),
          allow_partial_authorization: r.allow_partial_authorization === undefined || r.allow_partial_authorization === null ? true : truthy(r.allow_partial_authorization),
          level3_allow: r.level3_allow === undefined || r.level3_allow === null ? true : truthy(r.level3_allow),
          title: String(r.title ?? ''),
        }
      : undefined;
    this.ptCache.set(id, { at: Date.now(), pt });
    return pt;
  }

  /** The location's default_cc / default_ach, else its first product transaction of that method. */
  defaultProductTransactionId(locationId: string, method: 'cc' | 'ach'): string | undefined {
    const key = `${locationId}\0${method}`;
    const hit = this.defaultCache.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.id;
    const loc = this.safeGet('SELECT * FROM locations WHERE id = ?', locationId);
    let id = loc ? (loc[method === 'cc' ? 'default_cc' : 'default_ach'] as string | null | undefined) ?? undefined : undefined;
    if (!id) {
      const r = this.safeGet('SELECT id FROM product_transactions WHERE location_id = ? AND payment_method = ? ORDER BY id LIMIT 1', locationId, method);
      id = r ? String(r.id) : undefined;
    }
    this.defaultCache.set(key, { at: Date.now(), id });
    return id;
  }

  /** The one location among `candidates` (the caller's) with this location_api_id, else undefined. */
  locationByApiId(apiId: string, candidates: ReadonlySet<string>): string | undefined {
    let rows: Row[];
    try {
      rows = this.ctx.stmt('SELECT id FROM locations WHERE location_api_id = ?').all(apiId) as Row[];
    } catch {
      return undefined;
    }
    const mine = rows.map((r) => String(r.id)).filter((id) => candidates.has(id));
    return mine.length === 1 ? mine[0] : undefined;
  }

  locationName(locationId: string): string {
    const r = this.safeGet('SELECT name FROM locations WHERE id = ?', locationId);
    return r ? String(r.name ?? '') : '';
  }

  /** Location's contact_email_trx_receipt_default. */
  locationReceiptDefault(locationId: string): boolean {
    const r = this.safeGet('SELECT contact_email_trx_receipt_default AS d FROM locations WHERE id = ?', locationId);
    return r ? truthy(r.d) : false;
  }

  private toContact(r: Row | undefined): ContactInfo | undefined {
    if (!r) return undefined;
    return {
      id: String(r.id),
      location_id: String(r.location_id),
      email: (r.email as string | null) ?? null,
      email_trx_receipt: truthy(r.email_trx_receipt),
      first_name: (r.first_name as string | null) ?? null,
      last_name: (r.last_name as string | null) ?? null,
    };
  }

  contact(id: string): ContactInfo | undefined {
    return this.toContact(this.safeGet('SELECT * FROM contacts WHERE id = ?', id));
  }

  contactByApiId(locationId: string, apiId: string): ContactInfo | undefined {
    return this.toContact(this.safeGet('SELECT * FROM contacts WHERE location_id = ? AND contact_api_id = ?', locationId, apiId));
  }

  /** A recurring that has not ended uses the vault (an ended one no longer holds it). */
  vaultHasRecurring(vaultId: string): boolean {
    return this.safeGet("SELECT 1 AS x FROM recurrings WHERE account_vault_id = ? AND status != 'ended' LIMIT 1", vaultId) !== undefined;
  }

  clear(): void {
    this.ptCache.clear();
    this.defaultCache.clear();
  }
}
