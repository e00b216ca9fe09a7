/**
 * The public address of the store's payment pages (pay links, invoices): what a manager may
 * type, and whether a customer's phone can open it. Declared once for the IPC schema, the
 * core and the Gateway screen.
 */

export const PAY_ADDRESS_MAX = 128;

export const PAY_ADDRESS_TEXT = {
  invalid: 'Enter the address as a web link starting with http:// or https://, for example https://pay.yourstore.com.',
  tooLong: `The address is at most ${PAY_ADDRESS_MAX} characters.`,
} as const;

/** http(s)://host[:port][/path…]: no user name or password, no spaces (shared code has no URL class: a pattern). */
const ADDRESS_RE = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?(?:[/?#][^\s]*)?$/i;

/** The host of an address (brackets of an IPv6 literal dropped), or null when it is no http(s) address. */
function hostOf(text: string): string | null {
  const m = ADDRESS_RE.exec(text);
  return m ? m[1]!.replace(/^\[|\]$/g, '').toLowerCase() : null;
}

/** An http or https URL with a host. */
export function isPayAddress(text: string): boolean {
  const host = hostOf(text);
  return host !== null && host !== '' && !host.startsWith('.') && !host.endsWith('-');
}

/** localhost, *.localhost, 127.x.x.x, ::1 and 0.0.0.0 name this computer, never the customer's phone's way here. */
function isLoopbackHost(h: string): boolean {
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::1' || h === '0.0.0.0';
}

/** Why a customer's phone cannot open links at `address`, in words; null when it may. */
export function unreachableReason(address: string): string | null {
  const host = hostOf(address);
  if (host === null) return PAY_ADDRESS_TEXT.invalid;
  return isLoopbackHost(host)
    ? `A customer's phone cannot open this link: ${host} is this computer itself. Set the public address customers reach this register at (a web address your proxy or tunnel serves), for example https://pay.yourstore.com.`
    : null;
}
