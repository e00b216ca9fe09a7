/**
 * The sandbox's mock-terminal amounts (GATEWAY-FACTS "Terminal amounts"), declared once:
 * the simulator plays them, the tests walk the whole table.
 */
import type { TimeoutKey } from '../../../shared/payments/terminal-timeouts';
import type { CardBrand, Cvm, EntryMode } from '../terminal-commands';

export type MockOutcome =
  | { kind: 'read'; entryMode: EntryMode; debit: boolean; cvm: Cvm; brand?: CardBrand }
  | { kind: 'connect-error' }
  | { kind: 'timeout' }
  | { kind: 'aborted' }
  | { kind: 'timeout-of'; key: TimeoutKey }
  | { kind: 'delay'; seconds: number };

const read = (entryMode: EntryMode, debit: boolean, cvm: Cvm, brand?: CardBrand): MockOutcome => ({ kind: 'read', entryMode, debit, cvm, brand });
const BRANDS: CardBrand[] = ['visa', 'mastercard', 'amex', 'discover'];

export const MOCK_AMOUNTS: Record<number, MockOutcome> = {
  501: { kind: 'connect-error' },
  531: { kind: 'timeout' },
  599: { kind: 'aborted' },
  710: read('K', false, 'none'),
  711: read('S', true, 'pin'),
  712: read('S', false, 'signature'),
  713: read('S', false, 'none'),
  714: read('C', false, 'none'),
  715: read('C', false, 'signature'),
  716: read('C', false, 'pin'),
  717: read('C', true, 'pin'),
  718: read('P', false, 'none'),
  719: read('P', false, 'signature'),
  720: read('P', false, 'pin'),
  721: read('P', true, 'pin'),
  ...Object.fromEntries(BRANDS.map((b, i) => [750 + i, read('K', false, 'none', b)])),
  ...Object.fromEntries(BRANDS.map((b, i) => [754 + i, read('S', false, 'none', b)])),
  770: { kind: 'timeout-of', key: 'transaction_timeout' },
  771: { kind: 'timeout-of', key: 'overall_timeout' },
  772: { kind: 'timeout-of', key: 'card_entry_timeout' },
  773: { kind: 'timeout-of', key: 'pin_entry_timeout' },
  775: { kind: 'timeout-of', key: 'signature_input_timeout' },
  776: { kind: 'timeout-of', key: 'signature_submit_timeout' },
};

/** 8.xx: a custom delay of xx seconds before the answer. Anything else: a chip read, no CVM. */
export function mockOutcome(amountCents: number): MockOutcome {
  const fixed = MOCK_AMOUNTS[amountCents];
  if (fixed) return fixed;
  if (amountCents >= 800 && amountCents <= 899) return { kind: 'delay', seconds: amountCents - 800 };
  return read('C', false, 'none');
}

/**
 * Test cards per brand. The simulator answers only the first six and last four in the clear;
 * the full number (`pan`, the card "in the reader") leaves it only inside a store-and-forward
 * read, encrypted for the gateway (reader-encryption.ts), or when the `fullPan` fault plays a
 * terminal that leaks it.
 */
export const SIM_CARDS: Record<CardBrand, { pan: string; firstSix: string; lastFour: string; aid: string; label: string }> = {
  visa: { pan: '4111111111111111', firstSix: '411111', lastFour: '1111', aid: 'A0000000031010', label: 'VISA CREDIT' },
  mastercard: { pan: '5454545454545454', firstSix: '545454', lastFour: '5454', aid: 'A0000000041010', label: 'MASTERCARD' },
  amex: { pan: '371449635398431', firstSix: '371449', lastFour: '8431', aid: 'A000000025010801', label: 'AMERICAN EXPRESS' },
  discover: { pan: '6011000995500000', firstSix: '601100', lastFour: '0000', aid: 'A0000001523010', label: 'DISCOVER' },
};
