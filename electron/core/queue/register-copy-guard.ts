/**
 * What a copied data folder still answers (register-binding.ts), declared once as
 * installer-scope.ts declares an installer's: signing in and out, the app's status and
 * settings the shell reads at start, the offline queue's counts, and the key backup's list
 * and export (a register whose folder was copied away, or lost, can still have its keys
 * backed up — audited, behind a manager's PIN). Every other channel answers
 * REGISTER_COPY_MESSAGE before its handler runs: every money channel (sale, cart tenders,
 * refund, void, saved card, terminal, check, recurring, pay links, forwarding the offline
 * queue), and reading too.
 *
 * Why reading is refused as well: a copy has no gateway to read from. Its core starts no
 * engine and signs in to no remote gateway (app-core.ts), because each of those is the
 * original's: the copy's engine would run the original's recurring billing by itself, an
 * OAuth sign-in would refresh — and so end — the original's tokens, and a read with the
 * original's keys shows the merchant's live records, more than the copied files hold. What
 * the copy holds on disk its owner can read without Ringup. Saving a gateway or restoring
 * keys is refused too: in the node host the copy shares the original's keys folder, and a
 * write there would change the original register's keys.
 */
import type { Channel, HandlerMap } from '../../../shared/ipc/contract';
import { fail, type Result } from '../../../shared/result';
import { REGISTER_COPY_MESSAGE } from './register-binding';
import { SHELL_CHANNELS } from '../auth/shell-channels';

export const REGISTER_COPY_CHANNELS: ReadonlySet<Channel> = new Set<Channel>([...SHELL_CHANNELS, 'keys:backups', 'keys:export']);

/** Wraps the handler map of a copy (a decorator): a channel outside REGISTER_COPY_CHANNELS answers `register_copy`; a register's map is returned as it is. */
export function withRegisterCopyRefusal(handlers: HandlerMap, copy: boolean): HandlerMap {
  if (!copy) return handlers;
  const wrapped: Record<string, unknown> = { ...handlers };
  const refused = async (): Promise<Result<never>> => fail('register_copy', REGISTER_COPY_MESSAGE);
  for (const channel of Object.keys(handlers) as Channel[]) {
    if (!REGISTER_COPY_CHANNELS.has(channel)) wrapped[channel] = refused;
  }
  return wrapped as HandlerMap;
}
