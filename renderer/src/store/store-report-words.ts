/** The store report's sentences (issue 24), apart from the views so they are tested as plain functions. */
import type { StoreReport } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';

/** The card check in words: matched, differs by how much, or why it could not be made. */
export function cardCheckWords(c: StoreReport['cardCheck']): { text: string; tone: 'ok' | 'error' | 'info' } {
  const tenders = `Card tenders ${money(c.tendersCents)}`;
  if (c.gatewayCents === null) return { text: `${tenders} — not checked: this register does not use the store's gateway.`, tone: 'info' };
  if (c.matches) return { text: `${tenders} — gateway's records ${money(c.gatewayCents)}: match.`, tone: 'ok' };
  return {
    text: `${tenders} — gateway's records ${money(c.gatewayCents)}: they differ by ${money(Math.abs(c.tendersCents - c.gatewayCents))}. Check the registers with changes still to send, and the gateway's transactions.`,
    tone: 'error',
  };
}

/** "Front", "Front and Back", "Front, Back and Tablet". */
export function namesInWords(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}
