/**
 * The store settings form: what the inputs hold (text as typed) and how it becomes
 * StoreSettings. Each text is read into a number first (dollars to cents, a percent
 * with up to two decimals to basis points — textual, no float math); then the shared
 * schema, the same one the core checks with, gives the messages. One message per field.
 */
import { storeSettingsSchema, type StoreSettings } from '../../../shared/ipc/contract';
import { formatMoney } from '../../../shared/payments/money';
import { parseTypedAmount } from '../ui/money-format';

export interface SettingsForm {
  storeName: string;
  storeAddress: string;
  storePhone: string;
  taxRatePercent: string;
  taxOnByDefault: boolean;
  tipsEnabled: boolean;
  tip1: string;
  tip2: string;
  tip3: string;
  tipBase: StoreSettings['tipBase'];
  smartTipsEnabled: boolean;
  smartTipsThreshold: string;
  smartTip1: string;
  smartTip2: string;
  smartTip3: string;
  confirmAbove: string;
  hardCap: string;
  tipConfirmPercent: string;
  idleLockMinutes: string;
  drawerOpenAlertSeconds: string;
  /* Offline sales (issue 13) */
  offlinePaymentCap: string;
  offlineTotalCap: string;
  offlineAllowKeyed: boolean;
  offlineApprovalAbove: string;
  offlineExpiryHours: string;
  offlineAlertHours: string;
}

export type SettingsFormErrors = Partial<Record<keyof SettingsForm, string>>;

export const SETTINGS_FORM_MESSAGES = {
  taxRate: 'Enter the rate as a percent, like 8.25.',
  wholeNumber: 'Enter a whole number.',
  dollars: 'Enter an amount like 1000.00.',
} as const;

/** 825 → "8.25", 800 → "8", 850 → "8.5". */
export function bpToPercentText(bp: number): string {
  const whole = Math.floor(bp / 100);
  const frac = String(bp % 100).padStart(2, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** "8.25" → 825; "8" → 800; anything else → null. */
export function percentTextToBp(text: string): number | null {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.trim().replace(/%$/, '').trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

export function toForm(s: StoreSettings): SettingsForm {
  return {
    storeName: s.storeName,
    storeAddress: s.storeAddress,
    storePhone: s.storePhone,
    taxRatePercent: bpToPercentText(s.taxRateBasisPoints),
    taxOnByDefault: s.taxOnByDefault,
    tipsEnabled: s.tipsEnabled,
    tip1: String(s.tipPercents[0] ?? ''),
    tip2: String(s.tipPercents[1] ?? ''),
    tip3: String(s.tipPercents[2] ?? ''),
    tipBase: s.tipBase,
    smartTipsEnabled: s.smartTips.enabled,
    smartTipsThreshold: formatMoney(s.smartTips.thresholdCents),
    smartTip1: formatMoney(s.smartTips.amountsCents[0] ?? 0),
    smartTip2: formatMoney(s.smartTips.amountsCents[1] ?? 0),
    smartTip3: formatMoney(s.smartTips.amountsCents[2] ?? 0),
    confirmAbove: formatMoney(s.confirmAboveCents),
    hardCap: formatMoney(s.hardCapCents),
    tipConfirmPercent: String(s.tipConfirmPercent),
    idleLockMinutes: String(s.idleLockMinutes),
    drawerOpenAlertSeconds: String(s.drawerOpenAlertSeconds),
    offlinePaymentCap: formatMoney(s.offlinePaymentCapCents),
    offlineTotalCap: formatMoney(s.offlineTotalCapCents),
    offlineAllowKeyed: s.offlineAllowKeyed,
    offlineApprovalAbove: formatMoney(s.offlineApprovalAboveCents),
    offlineExpiryHours: String(s.offlineExpiryHours),
    offlineAlertHours: String(s.offlineAlertHours),
  };
}

/** Which form field shows a message about which settings field. */
const FIELD_OF: Record<string, keyof SettingsForm> = {
  storeName: 'storeName',
  storeAddress: 'storeAddress',
  storePhone: 'storePhone',
  taxRateBasisPoints: 'taxRatePercent',
  'tipPercents.0': 'tip1',
  'tipPercents.1': 'tip2',
  'tipPercents.2': 'tip3',
  tipPercents: 'tip1',
  'smartTips.thresholdCents': 'smartTipsThreshold',
  'smartTips.amountsCents.0': 'smartTip1',
  'smartTips.amountsCents.1': 'smartTip2',
  'smartTips.amountsCents.2': 'smartTip3',
  'smartTips.amountsCents': 'smartTip1',
  confirmAboveCents: 'confirmAbove',
  hardCapCents: 'hardCap',
  tipConfirmPercent: 'tipConfirmPercent',
  idleLockMinutes: 'idleLockMinutes',
  drawerOpenAlertSeconds: 'drawerOpenAlertSeconds',
  offlinePaymentCapCents: 'offlinePaymentCap',
  offlineTotalCapCents: 'offlineTotalCap',
  offlineApprovalAboveCents: 'offlineApprovalAbove',
  offlineExpiryHours: 'offlineExpiryHours',
  offlineAlertHours: 'offlineAlertHours',
};

export function formFieldOf(path: string): keyof SettingsForm | undefined {
  return FIELD_OF[path];
}

export function fromForm(f: SettingsForm): { settings: StoreSettings | null; errors: SettingsFormErrors } {
  const errors: SettingsFormErrors = {};
  const int = (key: keyof SettingsForm, text: string): number => {
    if (!/^\d{1,6}$/.test(text.trim())) {
      errors[key] ??= SETTINGS_FORM_MESSAGES.wholeNumber;
      return NaN;
    }
    return Number(text.trim());
  };
  const cents = (key: keyof SettingsForm, text: string): number => {
    const c = parseTypedAmount(text);
    if (c === null) {
      errors[key] ??= SETTINGS_FORM_MESSAGES.dollars;
      return NaN;
    }
    return c;
  };
  const bp = percentTextToBp(f.taxRatePercent);
  if (bp === null) errors.taxRatePercent = SETTINGS_FORM_MESSAGES.taxRate;
  const candidate = {
    storeName: f.storeName,
    storeAddress: f.storeAddress,
    storePhone: f.storePhone,
    taxRateBasisPoints: bp ?? NaN,
    taxOnByDefault: f.taxOnByDefault,
    tipsEnabled: f.tipsEnabled,
    tipPercents: [int('tip1', f.tip1), int('tip2', f.tip2), int('tip3', f.tip3)],
    tipBase: f.tipBase,
    smartTips: {
      enabled: f.smartTipsEnabled,
      thresholdCents: cents('smartTipsThreshold', f.smartTipsThreshold),
      amountsCents: [cents('smartTip1', f.smartTip1), cents('smartTip2', f.smartTip2), cents('smartTip3', f.smartTip3)],
    },
    confirmAboveCents: cents('confirmAbove', f.confirmAbove),
    hardCapCents: cents('hardCap', f.hardCap),
    tipConfirmPercent: int('tipConfirmPercent', f.tipConfirmPercent),
    idleLockMinutes: int('idleLockMinutes', f.idleLockMinutes),
    drawerOpenAlertSeconds: int('drawerOpenAlertSeconds', f.drawerOpenAlertSeconds),
    offlinePaymentCapCents: cents('offlinePaymentCap', f.offlinePaymentCap),
    offlineTotalCapCents: cents('offlineTotalCap', f.offlineTotalCap),
    offlineAllowKeyed: f.offlineAllowKeyed,
    offlineApprovalAboveCents: cents('offlineApprovalAbove', f.offlineApprovalAbove),
    offlineExpiryHours: int('offlineExpiryHours', f.offlineExpiryHours),
    offlineAlertHours: int('offlineAlertHours', f.offlineAlertHours),
  };
  const parsed = storeSettingsSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = formFieldOf(issue.path.join('.'));
      if (field) errors[field] ??= issue.message;
    }
  }
  return { settings: parsed.success && Object.keys(errors).length === 0 ? parsed.data : null, errors };
}
