/**
 * `sale:config`: the sale screen's configuration, the store settings as saved now (a manager's
 * save reaches a signed-in counter through `settings:changed`, which makes the screen ask
 * again). The name on the receipt is the store name on the settings screen; the tip percents
 * offered on screen are the store's — a payment terminal asks with its own percents, on the
 * terminal only.
 */
import type { SaleConfig } from '../../../shared/ipc/contract';
import type { StoreSettings } from '../../../shared/ipc/settings';
import { ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';

export interface SaleConfigDeps {
  users: UserDirectory;
  settings: () => StoreSettings;
}

export async function saleConfig(deps: SaleConfigDeps): Promise<Result<SaleConfig>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  const st = deps.settings();
  return ok({
    merchantName: st.storeName,
    tipPercents: [...st.tipPercents],
    tipEnabled: st.tipsEnabled,
    tipRules: { tipBase: st.tipBase, smartTips: st.smartTips },
    taxRateBasisPoints: st.taxRateBasisPoints,
    taxOnByDefault: st.taxOnByDefault,
    confirmAboveCents: st.confirmAboveCents,
    hardCapCents: st.hardCapCents,
    tipConfirmPercent: st.tipConfirmPercent,
    storeAddress: st.storeAddress,
    storePhone: st.storePhone,
  });
}
