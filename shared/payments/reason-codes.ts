/**
 * reason_code_id → a plain-English sentence a cashier can read out or act on.
 * Codes from GATEWAY-FACTS.md; 1601–1631 "specific declines" the facts do not name
 * get the generic decline sentence with the code for the processor's help desk.
 */
const SENTENCES: Record<number, string> = {
  1000: 'Approved.',
  1001: 'Approved: the authorization was completed.',
  1002: 'Approved: the forced sale was recorded with the voice authorization code.',
  1003: 'Declined: the card issuer did not authorize the amount.',
  1200: 'Voided: the payment was cancelled before settlement.',
  1201: 'Partially approved: the card covered only part of the amount. Collect the rest another way.',
  1500: 'Declined by the card issuer. Ask for another payment method.',
  1510: 'Declined: the issuer asks you to call for a voice authorization.',
  1520: 'Declined: the issuer asks you to keep the card (pick up). Do not hand it back if it is safe not to.',
  1530: 'Declined for now: please try again.',
  1540: 'Declined: the merchant account is not set up for this card or transaction.',
  1601: 'Declined: the payment could not be processed. Ask for another payment method.',
  1615: 'Declined: the issuer said do not honor. Ask for another payment method.',
  1616: 'Declined: insufficient funds. Ask for another payment method or a lower amount.',
  1622: 'Declined: the card has expired. Ask for another card.',
  1630: 'The batch was rejected by the processor. Try settling it again.',
};

/** Why a card was declined, as a short phrase (for a decline found after the customer left, when there is no one to ask). */
const DECLINE_CAUSES: Record<number, string> = {
  1003: 'the issuer did not authorize the amount',
  1500: 'declined by the card issuer',
  1510: 'the issuer asked for a voice authorization',
  1520: 'the issuer asked to keep the card',
  1530: 'declined for now',
  1540: 'the merchant account is not set up for this card',
  1601: 'the payment could not be processed',
  1615: 'the issuer said do not honor',
  1616: 'insufficient funds',
  1622: 'the card has expired',
};

export function declineCause(reasonCodeId: number | null | undefined): string {
  if (reasonCodeId == null) return 'no reason given';
  return DECLINE_CAUSES[reasonCodeId] ?? `code ${reasonCodeId}`;
}

export function reasonCodeSentence(reasonCodeId: number | null | undefined): string {
  if (reasonCodeId == null) return 'No response from the processor yet.';
  const s = SENTENCES[reasonCodeId];
  if (s) return s;
  if (reasonCodeId >= 1601 && reasonCodeId <= 1631) {
    return `Declined by the card issuer (code ${reasonCodeId}). Ask for another payment method.`;
  }
  if (reasonCodeId >= 1500 && reasonCodeId < 1600) return `Declined (code ${reasonCodeId}). Ask for another payment method.`;
  return `The gateway answered with code ${reasonCodeId}.`;
}

/** True when the reason code means the money was (at least partly) approved. */
export function isApprovalReason(reasonCodeId: number): boolean {
  return reasonCodeId === 1000 || reasonCodeId === 1001 || reasonCodeId === 1002 || reasonCodeId === 1201;
}
