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

/** BINs of the published commercial (Level 3 capable) test cards. */
export const COMMERCIAL_BINS: Record<string, 'corporate' | 'purchasing'> = {
  '400556': 'corporate', // 4005562231212149 Visa corporate
  '448527': 'purchasing', // 4485271031055802 Visa purchasing
  '540522': 'corporate', // 5405222222222226 Mastercard corporate
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

export function binInfo(firstSix: string, brand: CardBrand): BinInfo {
  const commercial = COMMERCIAL_BINS[firstSix];
  const product = commercial === 'purchasing' ? 'S' : commercial === 'corporate' ? 'K' : brand === 'visa' ? 'A' : 'MCC';
  return {
    issuer_bank_name: ISSUERS[firstSix] ?? `${NETWORK[brand]} ISSUER`,
    country_code: 'USA',
    detail_card_product: commercial ? 'Commercial' : 'Consumer',
    detail_card_indicator: commercial === 'purchasing' ? 'Purchasing' : commercial === 'corporate' ? 'Corporate' : 'Credit',
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
