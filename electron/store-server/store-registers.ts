/**
 * The store's registers: joining with a one-time code, invitations, each register's credential,
 * renaming and removing.
 *
 * A register's credential is a random token shown once in the join answer; the server keeps its
 * SHA-256 only and looks it up on every request, so removing a register (its hash deleted)
 * refuses its very next request. The same statement records when it was last seen and how many
 * changes it says it holds (one round trip for both).
 *
 * A code is never seen by the server: an invitation is kept by the code's proof (store-code.ts),
 * with the PIN pepper ring sealed with the code, until it is used (the ring is dropped then) or
 * expires (likewise, at the next join or invitation). A used code answers 409, an expired one 410.
 *
 * The setup code: while the store has no register, each start of a server process makes a new
 * one (the ones made before are withdrawn: only a code just printed is good). Simplification: two
 * processes started at once on an empty store each withdraw the other's; the one printed last works.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { codeProof, makeJoinCode } from '../common/store-code';
import { INVITE_TTL_MS, type JoinAnswer, type JoinRequest, type RegistersAnswer, type StoreRegisterRow } from '../../shared/store/store-wire';
import { appendAudit, type NewAuditRow } from './store-audit';
import { inTransaction, lockEvents, type StoreClient, type StorePool } from './store-database';
import { STORE_ERR, refuse } from './store-errors';
import { appendServerEvent, lastSeq } from './store-events';

/** A setup code lasts a day: the back-office machine and the first register may be a walk apart. */
export const SETUP_CODE_TTL_MS = 24 * 60 * 60_000;
/** A register seen this recently counts as connected (a pull holds up to 25 s). */
export const CONNECTED_WITHIN_MS = 30_000;

export interface AuthenticatedRegister {
  id: string;
  name: string;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The register a token belongs to (null: unknown or removed), noting when it was seen and what it holds. */
export async function authenticate(pool: StorePool, token: string, waiting: number | null, now = Date.now()): Promise<AuthenticatedRegister | null> {
  const { rows } = await pool.query<AuthenticatedRegister>(
    'UPDATE registers SET last_seen_ts = $2, waiting = COALESCE($3, waiting) WHERE token_hash = $1 AND removed_ts IS NULL RETURNING id, name',
    [hashToken(token), now, waiting],
  );
  return rows[0] ?? null;
}

async function activeRegisters(client: StoreClient): Promise<number> {
  return (await client.query<{ n: number }>('SELECT COUNT(*)::bigint AS n FROM registers WHERE removed_ts IS NULL')).rows[0]!.n;
}

/** The server's own audit row (no register's seq). */
function serverAudit(kind: string, detail: string, now: number, amountCents: number | null = null): NewAuditRow {
  return { ts: now, register_id: null, register_seq: null, kind, user_id: null, user_name: null, amount_cents: amountCents, transaction_id: null, detail, event_seq: null };
}

/** Drops the sealed rings of expired codes (the rows stay, so a late try hears "expired", not "unknown"). */
async function forgetExpired(pool: StorePool, now: number): Promise<void> {
  await pool.query('UPDATE invitations SET sealed_pepper = NULL WHERE expires_ts < $1 AND sealed_pepper IS NOT NULL', [now]);
}

/** A new setup code when the store has no register yet (null otherwise); the setup codes made before are withdrawn. */
export async function makeSetupCode(pool: StorePool, fingerprint: string, now = Date.now()): Promise<string | null> {
  return inTransaction(pool, async (client) => {
    await lockEvents(client);
    if ((await activeRegisters(client)) > 0) return null;
    const code = makeJoinCode(fingerprint);
    await client.query('DELETE FROM invitations WHERE setup AND used_ts IS NULL');
    await client.query('INSERT INTO invitations (code_proof, sealed_pepper, expires_ts, setup, made_by) VALUES ($1, NULL, $2, true, NULL)', [codeProof(code), now + SETUP_CODE_TTL_MS]);
    return code;
  });
}

interface InvitationRow {
  sealed_pepper: string | null;
  expires_ts: number;
  setup: boolean;
  made_by: string | null;
  used_ts: number | null;
}

export interface JoinContext {
  storeId: string;
  addresses: string[];
  gateway: JoinAnswer['gateway'];
}

/** Joins a register with a code's proof: the invitation is used in the same transaction that makes the register. */
export async function joinStore(pool: StorePool, req: JoinRequest, ctx: JoinContext, now = Date.now()): Promise<JoinAnswer> {
  await forgetExpired(pool, now);
  const token = randomBytes(32).toString('base64url');
  return inTransaction(pool, async (client) => {
    const inv = (await client.query<InvitationRow>('SELECT sealed_pepper, expires_ts, setup, made_by, used_ts FROM invitations WHERE code_proof = $1 FOR UPDATE', [req.codeProof])).rows[0];
    if (!inv) throw refuse(400, STORE_ERR.codeUnknown, 'codeProof');
    if (inv.used_ts !== null) throw refuse(409, STORE_ERR.codeUsed, 'codeProof');
    if (inv.expires_ts < now) throw refuse(410, STORE_ERR.codeExpired, 'codeProof');
    await lockEvents(client);
    const first = (await activeRegisters(client)) === 0;
    if (inv.setup && !first) throw refuse(409, STORE_ERR.codeNotFirst, 'codeProof');
    const id = randomUUID();
    await client.query('INSERT INTO registers (id, name, token_hash, joined_ts, last_seen_ts) VALUES ($1, $2, $3, $4, $4)', [id, req.registerName, hashToken(token), now]);
    await client.query('UPDATE invitations SET used_ts = $2, used_by = $3, sealed_pepper = NULL WHERE code_proof = $1', [req.codeProof, now, id]);
    const inviter = inv.made_by ? (await client.query<{ name: string }>('SELECT name FROM registers WHERE id = $1', [inv.made_by])).rows[0]?.name : undefined;
    await appendServerEvent(client, 'register', id, { registerId: id, name: req.registerName, removed: false }, now);
    const how = inv.setup ? 'with the setup code, as its first register' : `with a code made on “${inviter ?? inv.made_by}”`;
    await appendAudit(client, [serverAudit('store-change', `Register “${req.registerName}” (${id}) joined the store ${how}.`, now)], now);
    return {
      storeId: ctx.storeId,
      registerId: id,
      registerName: req.registerName,
      token,
      sealedPepper: inv.setup ? null : inv.sealed_pepper,
      first,
      addresses: ctx.addresses,
      gateway: ctx.gateway,
      lastSeq: await lastSeq(client),
    };
  });
}

/** A code for one more register, made on a register of the store (it knows the code; the server keeps its proof). */
export async function invite(pool: StorePool, by: AuthenticatedRegister, proof: string, sealedPepper: string | null, now = Date.now()): Promise<{ expiresTs: number }> {
  await forgetExpired(pool, now);
  const expiresTs = now + INVITE_TTL_MS;
  const { rowCount } = await pool.query('INSERT INTO invitations (code_proof, sealed_pepper, expires_ts, setup, made_by) VALUES ($1, $2, $3, false, $4) ON CONFLICT (code_proof) DO NOTHING', [
    proof,
    sealedPepper,
    expiresTs,
    by.id,
  ]);
  if (rowCount === 0) throw refuse(409, STORE_ERR.codeTaken, 'codeProof');
  return { expiresTs };
}

interface RegisterRow {
  id: string;
  name: string;
  joined_ts: number;
  last_seen_ts: number | null;
  waiting: number;
  removed_ts: number | null;
}

/** Every register, removed ones too (marked), in the order they joined. `holding`: registers holding a pull on this process now. */
export async function listRegisters(pool: Pick<StorePool, 'query'>, holding: ReadonlySet<string> = new Set(), now = Date.now()): Promise<RegistersAnswer> {
  const { rows } = await pool.query<RegisterRow>('SELECT id, name, joined_ts, last_seen_ts, waiting, removed_ts FROM registers ORDER BY joined_ts, id');
  return {
    registers: rows.map(
      (r): StoreRegisterRow => ({
        id: r.id,
        name: r.name,
        joinedTs: r.joined_ts,
        lastSeenTs: r.last_seen_ts,
        waiting: r.waiting,
        connected: r.removed_ts === null && (holding.has(r.id) || (r.last_seen_ts !== null && now - r.last_seen_ts <= CONNECTED_WITHIN_MS)),
        removed: r.removed_ts !== null,
      }),
    ),
  };
}

/** Renames (name) or removes (name null) a register: a `register` event tells every register, and the store's audit log keeps who did it. */
export async function changeRegister(pool: StorePool, by: AuthenticatedRegister, id: string, name: string | null, now = Date.now()): Promise<void> {
  if (name === null && id === by.id) throw refuse(400, STORE_ERR.removeSelf, 'id');
  await inTransaction(pool, async (client) => {
    await lockEvents(client);
    const reg = (await client.query<{ name: string; removed_ts: number | null }>('SELECT name, removed_ts FROM registers WHERE id = $1 FOR UPDATE', [id])).rows[0];
    if (!reg || reg.removed_ts !== null) throw refuse(404, STORE_ERR.registerUnknown, 'id');
    if (name !== null) {
      if (name === reg.name) return;
      await client.query('UPDATE registers SET name = $2 WHERE id = $1', [id, name]);
    } else {
      // The token's hash goes: the register's next request is refused, whichever server process it reaches.
      await client.query('UPDATE registers SET removed_ts = $2, token_hash = NULL WHERE id = $1', [id, now]);
    }
    await appendServerEvent(client, 'register', id, { registerId: id, name: name ?? reg.name, removed: name === null }, now);
    const what = name === null ? `Register “${reg.name}” (${id}) was removed from the store` : `Register “${reg.name}” (${id}) was renamed “${name}”`;
    await appendAudit(client, [serverAudit('store-change', `${what} on “${by.name}”.`, now)], now);
  });
}
