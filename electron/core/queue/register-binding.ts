/**
 * A copied data folder is not a register (issue 20, point 8).
 *
 * The keys a data folder uses are found through the folder itself: the node host's keys
 * folder is named by `<data>/keys-id` (node-host-keys.ts), the desktop app's safeStorage
 * ciphertext sits in `<data>/secrets/`, decrypted by the OS account's keychain. So a copy of
 * the folder on the same computer and account (`cp -a ~/.config/Ringup /tmp/copy`) opens
 * every key of the original: its PINs, its gateway keys, its offline queue.
 *
 * Decision: the secret store records which folder it belongs to, the **register binding**
 * (`register-binding`: the folder's real path, its device and inode). The first start of
 * a folder whose secret store holds no binding claims it. On every later start the folder
 * is the register when its inode is the bound one and its device or its path is too:
 * renamed in place (same inode and device) it stays the register, and the binding follows
 * the new path. Anything else — a copy made with `cp`, a sync tool or a file backup — has
 * another inode and is a copy; the core then reaches no gateway and answers every channel
 * but sign-in, status, settings and the key backup with REGISTER_COPY_MESSAGE (the channels
 * declared `copiedFolder: 'answers'` in shared/ipc; electron/ipc/channel-rules.ts refuses the
 * rest before their handlers run). The copy never writes the binding, so the original keeps it.
 *
 * Why reading is refused as well: a copy has no gateway to read from. Its core starts no
 * engine and signs in to no remote gateway (app-core.ts), because each of those is the
 * original's: the copy's engine would run the original's recurring billing by itself, an
 * OAuth sign-in would refresh — and so end — the original's tokens, and a read with the
 * original's keys shows the merchant's live records, more than the copied files hold. What
 * the copy holds on disk its owner can read without Ringup. Saving a gateway or restoring
 * keys is refused too: in the node host the copy shares the original's keys folder, and a
 * write there would change the original register's keys.
 * The key backup does not carry the binding: a fresh folder that restores a backup keeps
 * its own, which is how a register moves properly.
 *
 * Limits, said plainly:
 * - This stops a copy made by mistake or in passing, not someone who works as the same OS
 *   user: they can read the keys (the node host's key files, or the keychain through
 *   safeStorage), delete or rewrite the binding so a copy claims it, or talk to the copy's
 *   engine themselves. The OS account is the boundary; nothing inside it can be more.
 * - A folder moved to another disk (a `mv` that copies), or put back from a file backup at
 *   the same path, has a new inode and counts as a copy: move it with the key backup.
 * - A folder whose filesystem gives unstable inodes (some network or FUSE filesystems)
 *   would count as a copy after a remount; keep the data folder on a local disk.
 * - The first start of this version claims the binding: of two folders that were already
 *   copies of each other before it, the first to start is the register.
 * - A binding that cannot be read (damaged) is claimed anew by the folder starting.
 */
import { realpathSync, statSync } from 'node:fs';
import type { SecretStore } from '../../secrets/secret-store';

/** The secret store's record of the data folder it belongs to (not carried by the key backup). */
export const REGISTER_BINDING_SECRET = 'register-binding';

export const REGISTER_COPY_MESSAGE =
  'This data folder is a copy of another register’s data folder, so it takes no payments, refunds or voids and sends no offline sales. To move a register, make a key backup on the old register (System screen, Key backup), restore it on the new register’s own data folder and start Ringup again: the README’s “Key backup” says how.';

interface Binding {
  path: string;
  dev: string;
  ino: string;
}

export type RegisterStanding = { copy: false } | { copy: true; boundTo: string };

function identityOf(dataDir: string): Binding {
  const path = realpathSync(dataDir);
  // bigint: an inode may not fit a double (Windows file indexes, some filesystems).
  const st = statSync(path, { bigint: true });
  return { path, dev: String(st.dev), ino: String(st.ino) };
}

function parse(raw: Buffer): Binding | null {
  try {
    const b = JSON.parse(raw.toString('utf8')) as Partial<Binding>;
    return typeof b.path === 'string' && typeof b.dev === 'string' && typeof b.ino === 'string' ? { path: b.path, dev: b.dev, ino: b.ino } : null;
  } catch {
    return null;
  }
}

const save = (secrets: SecretStore, b: Binding) => secrets.set(REGISTER_BINDING_SECRET, Buffer.from(JSON.stringify(b)));

/** Whether this data folder is the register its secret store belongs to; claims the binding when none is held. */
export async function registerStanding(dataDir: string, secrets: SecretStore): Promise<RegisterStanding> {
  const here = identityOf(dataDir);
  const stored = await secrets.get(REGISTER_BINDING_SECRET);
  const bound = stored ? parse(stored) : null;
  if (!bound) {
    await save(secrets, here);
    return { copy: false };
  }
  if (bound.ino === here.ino && (bound.dev === here.dev || bound.path === here.path)) {
    // Renamed in place, or the same disk under another device number: the binding follows.
    if (bound.path !== here.path || bound.dev !== here.dev) await save(secrets, here);
    return { copy: false };
  }
  return { copy: true, boundTo: bound.path };
}
