/**
 * Every keyboard shortcut that is not a screen's function key, once: the help overlay lists
 * these after the screens' keys (screen-registry.ts declares those, with who may use them).
 */
export interface Shortcut {
  keys: string[];
  action: string;
  where: 'Everywhere' | 'Sale' | 'Sale result' | 'Transactions' | 'Sign in';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['F1', '?'], action: 'Show or hide this help', where: 'Everywhere' },
  { keys: ['F8'], action: 'Switch user', where: 'Everywhere' },
  { keys: ['F9'], action: 'Light or dark theme', where: 'Everywhere' },
  { keys: ['Esc'], action: 'Close a dialog or this help', where: 'Everywhere' },
  { keys: ['Enter'], action: "In a manager's PIN field: approve", where: 'Everywhere' },
  { keys: ['0–9'], action: 'Type the amount (it fills from the right: 1 2 5 0 is $12.50)', where: 'Sale' },
  { keys: ['Backspace'], action: 'Remove the last digit', where: 'Sale' },
  { keys: ['Delete'], action: 'Clear the amount', where: 'Sale' },
  { keys: ['Enter'], action: 'Go to the card details; in the card form, charge the card', where: 'Sale' },
  { keys: ['T'], action: 'Go to the tip choices (Esc goes back to the amount)', where: 'Sale' },
  { keys: ['0–4'], action: 'With the tip choices focused (T or Tab): No tip, the three percents, Custom', where: 'Sale' },
  { keys: ['←', '→'], action: 'Move between the tip choices', where: 'Sale' },
  { keys: ['Home', 'End'], action: 'The first or the last tip choice', where: 'Sale' },
  { keys: ['N', 'Enter'], action: 'Start the next sale', where: 'Sale result' },
  { keys: ['P'], action: 'Print the receipt', where: 'Sale result' },
  { keys: ['/'], action: 'Filter the list', where: 'Transactions' },
  { keys: ['↑', '↓'], action: 'Pick the previous or next transaction', where: 'Transactions' },
  { keys: ['R'], action: "Refund the selected sale (a cashier's with a manager's PIN)", where: 'Transactions' },
  { keys: ['0–9', 'Enter'], action: 'Type your PIN and sign in', where: 'Sign in' },
  { keys: ['Backspace'], action: 'Remove the last digit of the PIN', where: 'Sign in' },
  { keys: ['Esc'], action: 'Back to the names', where: 'Sign in' },
];

/** True when a key press belongs to a text field rather than to a shortcut. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['button', 'checkbox', 'radio', 'submit', 'reset'].includes(target.type);
  return false;
}
