/**
 * Every screen of the app, declared once: the top bar's tabs, the Manage hub's tiles,
 * the function keys and the screen switch in app.tsx all read this list. A new screen
 * is one entry here, its name in nav-store's ScreenName and its view in screen-views.tsx
 * (the type checker asks for each). The views live apart so that a screen which lists
 * screens (the Manage hub, the top bar) does not import itself through this file.
 *
 * - `tab` screens sit in the top bar (Sale, Transactions, System, Manage).
 * - `manage` screens are tiles on the Manage hub (F5): the back-office screens
 *   managers and installers use (settings, audit log, saved cards, batches …).
 */
import type { Role } from '../../../shared/ipc/contract';
import type { Shortcut } from './shortcuts';
import type { ScreenName } from './nav-store';

export interface ScreenDef {
  id: ScreenName;
  label: string;
  /** One line on the Manage hub's tile. */
  description?: string;
  /** Function key that opens it from anywhere (the help overlay lists it, from here). */
  key?: string;
  /** What the key does, in the help overlay (its label otherwise). */
  keyHelp?: string;
  group: 'tab' | 'manage';
  /** False only for screens that work before anyone signs in (System). */
  needsSession: boolean;
  /** Roles that may open it; absent means every signed-in user. */
  roles?: readonly Role[];
}

export const SCREENS: readonly ScreenDef[] = [
  { id: 'sale', label: 'Sale', key: 'F2', keyHelp: 'New sale', group: 'tab', needsSession: true, roles: ['cashier', 'manager'] },
  { id: 'transactions', label: 'Transactions', key: 'F3', keyHelp: "Today's transactions, refunds and voids", group: 'tab', needsSession: true, roles: ['cashier', 'manager'] },
  { id: 'system', label: 'System', key: 'F4', keyHelp: 'System status', group: 'tab', needsSession: false },
  { id: 'manage', label: 'Manage', key: 'F5', keyHelp: 'Manage: settings and back-office screens', group: 'tab', needsSession: true, roles: ['manager'] },
  // Installers see only this one (issue 12); managers too.
  { id: 'devices', label: 'Devices', key: 'F6', keyHelp: 'Devices: payment terminals and check scanners', group: 'tab', needsSession: true, roles: ['installer', 'manager'] },
  {
    id: 'batches',
    label: 'Batches',
    description: 'Totals of the open batch, settle it, settled batches and CSV export.',
    group: 'manage',
    needsSession: true,
    roles: ['manager'],
  },
  {
    id: 'reports',
    label: 'End of day',
    description: 'X report any time; close the day with a Z report; print or save as PDF.',
    group: 'manage',
    needsSession: true,
    roles: ['manager'],
  },
  {
    id: 'vault',
    label: 'Saved cards',
    description: "Customers' saved cards and bank accounts: add, update the expiry, delete.",
    group: 'manage',
    needsSession: true,
    roles: ['manager'],
  },
  {
    id: 'recurring',
    label: 'Recurring payments',
    description: 'Charge a saved card or bank account on a schedule: start, hold, skip, defer; the next 30 days.',
    group: 'manage',
    needsSession: true,
    roles: ['manager'],
  },
  {
    id: 'paylinks',
    label: 'Pay links and invoices',
    description: 'Phone and mail orders: send a pay link or an invoice, see what is paid, send again.',
    key: 'F7',
    keyHelp: 'Pay links and invoices for phone and mail orders',
    group: 'manage',
    needsSession: true,
    roles: ['cashier', 'manager'],
  },
  {
    id: 'gateway',
    label: 'Gateway',
    description: 'The embedded engine or a remote gateway: test it and change it.',
    group: 'manage',
    needsSession: true,
    roles: ['manager'],
  },
  {
    id: 'users',
    label: 'Counter users',
    description: 'Who signs in here and as what: add, change the role, reset a PIN, remove.',
    group: 'manage',
    needsSession: true,
    roles: ['manager'],
  },
  {
    id: 'queue',
    label: 'Offline queue',
    description: 'Sales taken while the gateway was away: sending, results, declines to collect.',
    group: 'manage',
    needsSession: true,
    roles: ['manager'],
  },
  {
    id: 'settings',
    label: 'Store settings',
    description: 'Receipt header, sales tax, tips, amount guards, idle lock',
    group: 'manage',
    needsSession: true,
    roles: ['manager'],
  },
  {
    id: 'audit',
    label: 'Audit log',
    description: 'Who signed in, sold, refunded, voided or changed settings, and when',
    group: 'manage',
    needsSession: true,
    roles: ['manager'],
  },
  {
    id: 'outbox',
    label: 'Outbox',
    description: 'Every e-mail and SMS sent to customers, with its link and whether it went out.',
    group: 'manage',
    needsSession: true,
    roles: ['manager'],
  },
  {
    id: 'catalogue',
    label: 'Catalogue',
    description: 'Items, prices, codes and quick keys; import a CSV file.',
    group: 'manage',
    needsSession: true,
    roles: ['manager'],
  },
  {
    // Cashiers open it from the Transactions screen (reprint a cart's receipt); managers also return items here.
    id: 'cartsales',
    label: 'Cart sales',
    description: 'Sales rung up as a cart, cash ones too: reprint the receipt, return items.',
    group: 'manage',
    needsSession: true,
    roles: ['cashier', 'manager'],
  },
  {
    id: 'registers',
    label: 'Registers',
    description: "This register in a store: connect it to a store server; the store's registers, add, rename, remove.",
    group: 'manage',
    needsSession: true,
    roles: ['manager'],
  },
];

export function screenDef(id: ScreenName): ScreenDef | undefined {
  return SCREENS.find((s) => s.id === id);
}

/** Whether this role may open the screen (signed-out users only reach screens without a session). */
export function mayOpen(def: ScreenDef, role: Role | null): boolean {
  if (!def.needsSession) return true;
  if (role === null) return false;
  return !def.roles || def.roles.includes(role);
}

const ROLE_PLURALS: Record<Role, string> = { cashier: 'cashiers', manager: 'managers', installer: 'installers' };

/** Who may open a screen, in words ("installers and managers"); null when every signed-in user may. */
export function whoMayOpen(def: ScreenDef): string | null {
  if (!def.roles) return null;
  const names = def.roles.map((r) => ROLE_PLURALS[r]);
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}

/**
 * Why a screen's key did nothing for the signed-in user (issue 21, point 12): a key that
 * is silently ignored reads as a broken key at a busy counter.
 */
export function keyRefusal(def: ScreenDef): string {
  return `${def.label} (${def.key ?? ''}) is for ${whoMayOpen(def) ?? 'signed-in users'}. Press Switch user (F8) to sign in as one.`;
}

/** The screens' function keys as help lines, each saying who may use it: declared on the screens, listed from here. */
export function screenShortcuts(): Shortcut[] {
  return SCREENS.filter((d) => d.key).map((d) => {
    const who = whoMayOpen(d);
    return { keys: [d.key!], action: `${d.keyHelp ?? d.label}${who ? ` (${who})` : ''}`, where: 'Everywhere' };
  });
}
