/**
 * What an installer may ask of the core, declared once (issue 11, point 3; issue 12): the
 * sign-in channels, the app's status and settings the shell reads for every user, and the
 * device set-up behind the Devices and System screens. Everything else — every money and
 * transaction channel (sales, transactions, receipts, links, carts, saved cards, batches,
 * reports, recurring, pay links, the offline queue's lists) and every manager screen — answers
 * `forbidden` to an installer, whatever the handler itself checks: a new channel is closed to
 * installers until it is listed here. The engine refuses them too: an installer's requests go
 * as the engine's device-installer user, which moves no money (role-credentials.ts).
 */
import type { Channel, HandlerMap, Session } from '../../../shared/ipc/contract';
import { fail, type Result } from '../../../shared/result';
import { SHELL_CHANNELS } from './shell-channels';
import { AUTH_ERRORS } from './users';

export const INSTALLER_CHANNELS: ReadonlySet<Channel> = new Set<Channel>([
  ...SHELL_CHANNELS,
  // The first-run choice is made before anyone signs in.
  'gateway:first-run',
  'gateway:first-run-choose',
  // The Devices screen.
  'devices:terminal-status',
  'devices:installer-data',
  'devices:terminal-save',
  'devices:terminal-test',
  'devices:terminal-terms',
  'devices:terminal-certificate',
  'devices:scanner-save',
  'devices:scanner-test',
  'devices:serial-ports',
]);

/**
 * Wraps the handler map (a decorator, as audit-money.ts): a channel outside
 * INSTALLER_CHANNELS answers `forbidden` to a window signed in as an installer before its
 * handler runs. Who is signed in is read without counting as activity; anyone else goes
 * on to the handler and its own checks.
 */
export function withInstallerScope(handlers: HandlerMap, whoIsCalling: () => Session | null): HandlerMap {
  const wrapped: Record<string, unknown> = { ...handlers };
  for (const channel of Object.keys(handlers) as Channel[]) {
    if (INSTALLER_CHANNELS.has(channel)) continue;
    const inner = handlers[channel] as (arg: unknown) => Promise<Result<unknown>>;
    wrapped[channel] = async (arg: unknown) => (whoIsCalling()?.user.role === 'installer' ? fail('forbidden', AUTH_ERRORS.installerScope) : inner(arg));
  }
  return wrapped as HandlerMap;
}
