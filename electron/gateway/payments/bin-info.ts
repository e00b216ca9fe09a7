/**
 * Deterministic BIN information for the sandbox test cards (GET
 * /v2/accountvaults/{id}/bininfo) and the commercial-card check that gives Level 3
 * defaults. Unknown BINs get brand-derived generic data. Simplification: no real BIN table.
 */
import type { CardBrand } from '../../../shared/payments/card-brand';

export interface BinInfo {
  issuer_bank_name: string;
  country_code: string;
  detail_card_product: string;
  detail_card_indicator: string;
  fsa_indicator: string;
  prepaid_indicator: string;
  product_id: string;
  regulator_indicator: string;
  visa_product_sub_type: string;
  visa_large_ticket_indicator: string;
  account_fund_source: string;
  card_class: string;
  token_ind: string;
  issuing_network: string;
}

const NETWORK: Record<CardBrand, string> = { visa: 'VISA', mastercard: 'MASTERCARD', amex: 'AMEX', discover: 'DISCOVER', unknown: 'UNKNOWN' };

export type CommercialKind = 'corporate' | 'purchasing' | 'business' | 'fleet';

/**
 * BINs of the published commercial (Level 3 capable) test cards: GATEWAY-FACTS' three and
 * every commercial card of the family's TestData.md (purchasing, fleet, GSA, business,
 * government and corporate). Two readings where the sources disagree:
 * - 4005562231212149 is "Visa Debit Classic" in TestData but the project's Visa corporate
 *   card in GATEWAY-FACTS (and the app's Level 3 screens and tests use it so): corporate.
 * - 5454545454545454 is "MC B2B" in TestData, but the interface's own examples and
 *   GATEWAY-FACTS use it as the everyday Mastercard: consumer (no default Level 3 on every
 *   ordinary MC sale).
 */
export const COMMERCIAL_BINS: Record<string, CommercialKind> = {
  '400556': 'corporate', // 4005562231212149 Visa corporate (GATEWAY-FACTS)
  '448527': 'purchasing', // 4485271031055802 Visa purchasing credit
  '448542': 'fleet', // 4485420616463945 Visa purchasing fleet
  '471667': 'purchasing', // 4716677219134014 Visa GSA purchasing (CBA)
  '471691': 'purchasing', // 4716917729443632 Visa GSA purchasing (IBA)
  '461467': 'purchasing', // 4614677725500115 Visa GSA purchasing (CBA)
  '400049': 'business', // 4000491425554808 Visa business
  '400157': 'business', // 4001578329427195 Visa business
  '448610': 'corporate', // 4486101754876333, 4486108123830545 Visa government corporate T&E
  '540522': 'corporate', // 5405222222222226 Mastercard corporate (GATEWAY-FACTS; TestData: purchasing)
  '547067': 'purchasing', // 5470675332875417 Mastercard purchasing
  '543581': 'business', // 5435815271011988 Mastercard business debit prepaid
  '556506': 'corporate', // 5565061411468182 Mastercard government commercial (CBA)
  '556802': 'corporate', // 5568022953219547 Mastercard government commercial (IBA)
  '556098': 'fleet', // 5560988568989757 Mastercard fleet purchasing
  '556680': 'corporate', // 5566806760567334 Mastercard corporate
};

export function isCommercialBin(firstSix: string | null | undefined): boolean {
  return !!firstSix && firstSix in COMMERCIAL_BINS;
}

const ISSUERS: Record<string, string> = {
  '411111': 'SANDBOX BANK OF TESTING',
  '401288': 'SANDBOX BANK OF TESTING',
  '545454': 'SANDBOX MASTERCARD ISSUER',
  '601100': 'DISCOVER BANK',
  '371449': 'AMERICAN EXPRESS',
  '400556': 'SANDBOX COMMERCIAL BANK',
  '448527': 'SANDBOX PURCHASING BANK',
  '540522': 'SANDBOX COMMERCIAL BANK',
};

const PRODUCT_ID: Record<CommercialKind, string> = { corporate: 'K', purchasing: 'S', business: 'B', fleet: 'S' };
const INDICATOR: Record<CommercialKind, string> = { corporate: 'Corporate', purchasing: 'Purchasing', business: 'Business', fleet: 'Fleet' };

export function binInfo(firstSix: string, brand: CardBrand): BinInfo {
  const commercial = COMMERCIAL_BINS[firstSix];
  const product = commercial ? PRODUCT_ID[commercial] : brand === 'visa' ? 'A' : 'MCC';
  return {
    issuer_bank_name: ISSUERS[firstSix] ?? (commercial ? 'SANDBOX COMMERCIAL BANK' : `${NETWORK[brand]} ISSUER`),
    country_code: 'USA',
    detail_card_product: commercial ? 'Commercial' : 'Consumer',
    detail_card_indicator: commercial ? INDICATOR[commercial] : 'Credit',
    fsa_indicator: 'N',
    prepaid_indicator: 'N',
    product_id: product,
    regulator_indicator: 'N',
    visa_product_sub_type: brand === 'visa' ? (commercial ? 'CB' : '') : '',
    visa_large_ticket_indicator: brand === 'visa' && commercial ? 'Y' : 'N',
    account_fund_source: 'C',
    card_class: commercial ? 'Business' : 'Consumer',
    token_ind: 'N',
    issuing_network: NETWORK[brand],
  };
}
