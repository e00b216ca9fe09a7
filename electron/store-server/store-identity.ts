/**
 * The store's identity: its id, name and TLS certificate, made once (the first start on an empty
 * database) and kept in PostgreSQL with its private key, so every server process of the store
 * shows the same certificate and a register pinned to it reaches any of them.
 *
 * The certificate is self-signed (RSA 2048, SHA-256, 10 years): registers do not trust it through
 * any authority but by its fingerprint, learnt from the join code (store-code.ts) and then pinned
 * whole. Its names (SAN) are this machine's addresses, 127.0.0.1 and localhost, for tools that
 * check names; the registers do not (a back-office machine's address may change).
 *
 * Simplification: the private key is stored in the database in clear; whoever can read the
 * store's database can also rewrite its data, so sealing it would only move the secret. The PIN
 * pepper is never stored in clear here (only sealed, in an invitation, until it is used).
 */
import { randomUUID } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import { generate } from 'selfsigned';
import { certificateFingerprint } from '../common/store-code';
import { IDENTITY_LOCK, LOCK_NAMESPACE, inTransaction, type StorePool } from './store-database';

export interface StoreIdentity {
  storeId: string;
  name: string;
  certificatePem: string;
  keyPem: string;
  /** SHA-256 of the certificate, AA:BB:… */
  fingerprint: string;
}

export const DEFAULT_STORE_NAME = 'Ringup store';
const CERTIFICATE_YEARS = 10;

/** This machine's IPv4 and IPv6 addresses, loopback last. */
export function machineAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) if (!a.internal) out.push(a.address);
  return out;
}

async function makeCertificate(name: string): Promise<{ cert: string; key: string }> {
  const notBefore = new Date();
  const notAfter = new Date(notBefore);
  notAfter.setFullYear(notAfter.getFullYear() + CERTIFICATE_YEARS);
  const ips = [...new Set(['127.0.0.1', '::1', ...machineAddresses()])];
  const dns = [...new Set(['localhost', hostname()])];
  const pems = await generate([{ name: 'commonName', value: name.slice(0, 64) }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: notBefore,
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [...dns.map((value) => ({ type: 2 as const, value })), ...ips.map((ip) => ({ type: 7 as const, ip }))] },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

interface IdentityRow {
  store_id: string;
  name: string;
  certificate_pem: string;
  key_pem: string;
  fingerprint: string;
}

const fromRow = (r: IdentityRow): StoreIdentity => ({ storeId: r.store_id, name: r.name, certificatePem: r.certificate_pem, keyPem: r.key_pem, fingerprint: r.fingerprint });

/**
 * The stored identity, made first when there is none (under a lock: two first starts at once make
 * one). `name` renames the store when given.
 */
export async function loadStoreIdentity(pool: StorePool, name?: string): Promise<StoreIdentity & { created: boolean }> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_NAMESPACE, IDENTITY_LOCK]);
    const found = (await client.query<IdentityRow>('SELECT store_id, name, certificate_pem, key_pem, fingerprint FROM store_identity WHERE id = 1')).rows[0];
    if (found) {
      if (name && name !== found.name) {
        await client.query('UPDATE store_identity SET name = $1 WHERE id = 1', [name]);
        found.name = name;
      }
      return { ...fromRow(found), created: false };
    }
    const storeName = name ?? DEFAULT_STORE_NAME;
    const { cert, key } = await makeCertificate(storeName);
    const row: IdentityRow = { store_id: randomUUID(), name: storeName, certificate_pem: cert, key_pem: key, fingerprint: certificateFingerprint(cert) };
    await client.query('INSERT INTO store_identity (id, store_id, name, certificate_pem, key_pem, fingerprint, created_ts) VALUES (1, $1, $2, $3, $4, $5, $6)', [
      row.store_id,
      row.name,
      row.certificate_pem,
      row.key_pem,
      row.fingerprint,
      Date.now(),
    ]);
    return { ...fromRow(row), created: true };
  });
}
