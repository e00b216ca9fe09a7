import type { Role } from '../../../shared/ipc/contract';

/** How each role is named on screen. */
export const ROLE_LABEL: Record<Role, string> = { manager: 'Manager', cashier: 'Cashier', installer: 'Installer' };
