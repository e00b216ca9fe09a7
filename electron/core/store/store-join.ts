/**
 * Joining a store, and inviting the next register (issue 24, point 2).
 *
 * Join (Manage → Registers, "Connect to a store server": address, code, this register's name):
 * 1. `GET /v1/hello` on a connection that trusts nothing yet gives the server's certificate;
 *    the register goes on only when its fingerprint matches the code's second half
 *    (store-code.ts `codeMatchesCertificate`): a machine in the middle is refused here.
 * 2. `POST /v1/join` over a link pinned to that certificate, with the code's proof (the code
 *    itself never travels). The answer is the register's id and token; the token goes to the
 *    secret store (never ringup.db).
 * 3. The store's first register (`first: true`): its users, store settings and catalogue become
 *    the store's — a full copy of its shared rows (SHARED_ROW_TABLES order: parents first) and its
 *    stock ledger go into the outbox in the same transaction that marks it joined.
 *    A later register: it opens the store's PIN pepper ring (sealed with the code) and puts it
 *    FIRST in its own ring, so the PINs it sets from now on check on every register and the
 *    store's PINs check here; it drops its own users, settings and catalogue when the store's
 *    first arrive (apply-events.ts, `reset_pending`) and pulls everything from seq 0.
 *    Simplification: its own past sales stay on it and are not sent to the store.
 * 4. A register a manager removed joins again the same way, with a new code from Add: it gets a
 *    new id and token and is a later register like any other (its rows replaced by the store's,
 *    everything pulled from seq 0). What waited in its outbox when it was removed is dropped in
 *    the transaction that joins it: those rows name changes made under its old id, against the
 *    store as it was then (a delete of a user the store has since changed, a price from before),
 *    and pushed under the new id they would undo the store's later changes. Simplification: sales
 *    and cash still waiting then, and what it did while removed (nothing was captured), stay on
 *    it and are not sent, like a later register's past sales.
 *
 * Invite (Add, on a register of the store): a new code made with the pinned certificate's
 * fingerprint, this register's pepper ring sealed with it, the proof and the sealed ring sent to
 * the server; the code is shown once and never written down here.
 *
 * Why the token is not in the key backup: a backup restored on a second machine would make two
 * registers push under one id, and their outbox numbers (`<registerId>:<seq>`) would collide — the
 * server keeps the first of each id, so one machine's sales would be lost. A replacement machine
 * joins with a new code instead.
 */
import { codeMatchesCertificate, codeProof, groupCode, makeJoinCode, openWithCode, sealForCode, certificateFingerprint } from '../../common/store-code';
import { STORE_MSG, type StoreInvitation } from '../../../shared/ipc/store';
import { SHARED_ROW_TABLES, STORE_ROUTES, type JoinAnswer } from '../../../shared/store/store-wire';
import { fail, ok, type Result } from '../../../shared/result';
import type { SecretStore } from '../../secrets/secret-store';
import { loadPinPepper, mergePepperRings, PIN_PEPPER_SECRET, type PinHasher } from '../auth/pin-hash';
import type { PosDatabase } from '../platform/pos-database';
import { StoreApi } from './store-api';
import { readCertificate, StoreAwayError, StoreLink, StoreRefusal } from './store-tls';
import { readSyncState, writeJoined } from './sync-state';
import { STORE_GATEWAY_KEY_SECRET } from './store-gateway';

/** The register's credential at its store, in the secret store. */
export const STORE_TOKEN_SECRET = 'store-token';

export interface JoinDeps {
  db: PosDatabase;
  secrets: SecretStore;
  pins: PinHasher;
  timeoutMs?: number;
  /**
   * Keep to the address typed, not the others the store lists: a register whose only route to
   * the store is that address (tests that cut one register's link at a proxy on the same machine).
   */
  typedAddressOnly?: boolean;
}

export interface Joined {
  answer: JoinAnswer;
  certPem: string;
  /** The address the join went to (first in the list the register keeps). */
  address: string;
}

/** The server's sentence for a refusal it explains; the code's own sentence for a code it does not take. */
function joinRefusal(err: StoreRefusal): Result<never> {
  if (err.status === 400 && err.body) return fail('invalid', err.message, err.body.errors);
  return fail('wrong_code', STORE_MSG.wrongCode, { code: [STORE_MSG.wrongCode] });
}

export async function joinStore(deps: JoinDeps, args: { address: string; code: string; registerName: string }): Promise<Result<Joined>> {
  const address = args.address.replace(/\/+$/, '');
  let shown;
  try {
    shown = await readCertificate(address, STORE_ROUTES.hello, deps.timeoutMs);
  } catch {
    return fail('away', STORE_MSG.away, { address: [STORE_MSG.away] });
  }
  if (!codeMatchesCertificate(args.code, shown.fingerprint)) return fail('wrong_server', STORE_MSG.wrongServer, { address: [STORE_MSG.wrongServer] });
  const link = new StoreLink({ addresses: [address], certPem: shown.pem, token: () => null, ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}) });
  let answer: JoinAnswer;
  try {
    answer = (await new StoreApi(link).join({ codeProof: codeProof(args.code), registerName: args.registerName })).value;
  } catch (err) {
    if (err instanceof StoreRefusal) return joinRefusal(err);
    if (err instanceof StoreAwayError) return fail('away', STORE_MSG.away);
    throw err;
  } finally {
    link.close();
  }
  // A later register takes the store's pepper before anything else changes: a code that does not open it leaves this register as it was.
  let ring: Buffer | null = null;
  if (!answer.first && answer.sealedPepper) {
    const storeRing = await openWithCode(args.code, answer.sealedPepper);
    if (!storeRing) return fail('wrong_code', STORE_MSG.wrongCode, { code: [STORE_MSG.wrongCode] });
    ring = mergePepperRings(storeRing, await loadPinPepper(deps.secrets));
  }
  await deps.secrets.set(STORE_TOKEN_SECRET, Buffer.from(answer.token, 'utf8'));
  if (answer.gateway) await deps.secrets.set(STORE_GATEWAY_KEY_SECRET, Buffer.from(answer.gateway.userApiKey, 'utf8'));
  else await deps.secrets.delete(STORE_GATEWAY_KEY_SECRET);
  const gateway = answer.gateway ? (({ userApiKey: _key, ...rest }) => rest)(answer.gateway) : null;
  if (ring) {
    await deps.secrets.set(PIN_PEPPER_SECRET, ring);
    deps.pins.setRing(ring);
  }
  // The address typed first: it answered; the others the server listed follow (unless told to keep to the one typed).
  const addresses = deps.typedAddressOnly ? [address] : [address, ...answer.addresses.map((a) => a.replace(/\/+$/, '')).filter((a) => a !== address)];
  deps.db.transaction(() => {
    // Removed and joining again: what waited under its old id goes (point 4 above).
    if (readSyncState(deps.db).removed) deps.db.prepare('DELETE FROM sync_outbox').run();
    writeJoined(deps.db, {
      storeId: answer.storeId,
      registerId: answer.registerId,
      registerName: answer.registerName,
      addresses,
      certPem: shown.pem,
      // The first register starts at the store's present (its rows become the store's); a later one pulls everything.
      lastSeq: answer.first ? answer.lastSeq : 0,
      resetPending: !answer.first,
      gateway,
    });
    if (answer.first) enqueueFullCopy(deps.db, answer.lastSeq);
  })();
  return ok({ answer, certPem: shown.pem, address });
}

/** The first register's shared rows and stock ledger, into the outbox (parents before children). */
function enqueueFullCopy(db: PosDatabase, seenSeq: number): void {
  const at = Date.now();
  for (const t of SHARED_ROW_TABLES) {
    db.prepare(
      `INSERT INTO sync_outbox (type, kind, op, key, seen_seq, at)
       SELECT 'row', '${t.table}', 'upsert', json_array(${t.key.join(', ')}), ?, ? FROM ${t.table}${'where' in t ? ` WHERE ${t.where}` : ''}`,
    ).run(seenSeq, at);
  }
  db.prepare("INSERT INTO sync_outbox (type, kind, op, key, seen_seq, at) SELECT 'fact', 'stock_movements', NULL, id, NULL, ? FROM stock_movements ORDER BY seq").run(at);
}

/** A one-time code for the next register, with this register's pepper ring sealed in it for the server to hand over. */
export async function inviteRegister(deps: { secrets: SecretStore; api: StoreApi; certPem: string }): Promise<Result<StoreInvitation>> {
  const code = makeJoinCode(certificateFingerprint(deps.certPem));
  const ring = await deps.secrets.get(PIN_PEPPER_SECRET);
  const sealed = ring ? await sealForCode(code, ring) : null;
  try {
    const answer = await deps.api.invite(codeProof(code), sealed);
    return ok({ code: groupCode(code), address: answer.address, expiresMs: answer.value.expiresTs });
  } catch (err) {
    if (err instanceof StoreRefusal) return fail(err.status === 401 ? 'removed' : 'refused', err.status === 401 ? STORE_MSG.removed : err.message);
    if (err instanceof StoreAwayError) return fail('away', STORE_MSG.away);
    throw err;
  }
}
