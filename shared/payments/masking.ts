/**
 * Masking of account numbers for display, receipts and storage. Only the first six
 * and last four digits ever leave the vault (PCI DSS allows at most these).
 */
import { luhnValid } from './luhn';
export function firstSix(accountNumber: string): string {
  return accountNumber.slice(0, 6);
}

export function lastFour(accountNumber: string): string {
  return accountNumber.slice(-4);
}

/** "4111 11•• •••• 1111"-style mask without separators: 411111******1111. */
export function maskAccountNumber(accountNumber: string): string {
  if (accountNumber.length <= 10) return '*'.repeat(Math.max(0, accountNumber.length - 4)) + lastFour(accountNumber);
  return firstSix(accountNumber) + '*'.repeat(accountNumber.length - 10) + lastFour(accountNumber);
}

/** Receipt line: "VISA ************1111" style (brand label + last four). */
export function maskForReceipt(lastFourDigits: string, brandLabel = ''): string {
  return `${brandLabel ? brandLabel.toUpperCase() + ' ' : ''}************${lastFourDigits}`;
}

const CARD_RUN = /\d(?:[ -]?\d){12,18}/g;

/**
 * Card numbers inside free text: every run of 13–19 digits (single spaces or hyphens
 * between them allowed) that passes Luhn becomes asterisks plus its last four digits
 * ("************1111"). The engine applies it to what it stores (framework/card-mask.ts);
 * the app uses it to recognise a value the engine masked. A run of zeros only passes Luhn
 * trivially and is no card (no issuer number is 0…0): placeholder ids such as
 * 00000000-0000-4000-8000-000000000000 are left as they are.
 */
export function maskCardNumbersInText(text: string): string {
  if (text.length < 13 || !holdsDigitRun(text)) return text;
  return text.replace(CARD_RUN, (run) => {
    const digits = run.replace(/[ -]/g, '');
    return luhnValid(digits) && /[1-9]/.test(digits) ? '*'.repeat(digits.length - 4) + digits.slice(-4) : run;
  });
}

/**
 * Whether the text holds 13 digits in a row, a single space or hyphen allowed between two of
 * them: what CARD_RUN needs to match at all. A scan without a regex, so the common case (an
 * id, an amount, a name) costs a loop, not a replace: the engine masks every string of every
 * body, and ids are checked as they are made.
 */
function holdsDigitRun(text: string): boolean {
  let run = 0;
  let afterSeparator = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++run >= 13) return true;
      afterSeparator = false;
    } else if ((c === 32 || c === 45) && run > 0 && !afterSeparator) {
      afterSeparator = true;
    } else {
      // Any other character, or a second separator, ends the run; a separator after it may not start one.
      run = 0;
      afterSeparator = false;
    }
  }
  return false;
}

/**
 * A random id or key that never looks like a card number: drawn again while it holds one.
 * The gateway refuses a card number in an identifier (a transaction_api_id, a key) rather than
 * mask it, and about one random UUID in 15,000 (one 32-character hex key in 200) holds a Luhn
 * run of 13 digits or more; so every id that is sent as one, or handed out as one, is drawn here.
 */
export function cardSafe(draw: () => string): string {
  let v = draw();
  while (maskCardNumbersInText(v) !== v) v = draw();
  return v;
}
