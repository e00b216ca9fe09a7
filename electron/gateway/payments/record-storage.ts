/**
 * How a transaction record is stored: lean. The record the API answers carries every key of
 * RECORD_FIELDS (transaction-doc.ts), 105, of which a keyed card sale sets 33; stored
 * whole, the nulls were 60% of its 2.4 KB, each sale's row filled a 4 KiB page of its own,
 * and the WAL wrote (and the checkpoint wrote again) that page per sale. So `doc` holds the
 * keys that are set, in the record's order, and `doc_keys` says which keys it holds; a read
 * puts the others back as null by joining one cached string per key set, so a page of 5000
 * is still string concatenation, never a parse.
 *
 * - Which key a bit of `doc_keys` stands for is kept in the database
 *   (`transaction_record_keys`, migration 107): a key added to the record later takes the next
 *   position, so a stored mask never changes meaning, and a key a row's mask does not name
 *   is null in it (the row predates the key).
 * - `doc_keys` NULL: the doc holds every key itself (rows written before migration 107).
 * - The keys SQL changes in place with json_set (ACH status moves, batch settle, contact
 *   moves, invoice links: IN_PLACE_KEYS) are stored even when null, so json_set replaces
 *   them where they are instead of adding a second copy of a key the read puts back;
 *   record-storage.test.ts reads every json_set/json_insert/json_remove on `doc` in the
 *   engine's sources and fails for a key outside this list.
 * - Key order: the set keys in the record's order, then the null ones. JSON objects are
 *   unordered; every key is always there.
 */
import type { Db } from '../framework/database';
import { BYTE_HEX } from '../framework/ids';
import { RECORD_FIELDS } from './transaction-doc';

/** Keys that SQL updates inside a stored doc (json_set): always stored, null or not. */
export const IN_PLACE_KEYS: ReadonlySet<string> = new Set([
  'id',
  'status_id',
  'modified_ts',
  'modified_user_id',
  'settle_date',
  'transaction_settlement_status',
  'contact_id',
  'quick_invoice_id',
]);

export interface StoredRecord {
  /** The JSON of the record's set keys (and IN_PLACE_KEYS). */
  doc: string;
  /** Which keys `doc` holds: hex, 32 positions to 8 digits, lowest positions first. */
  keys: string;
}

/** Positions of the record's keys in `doc_keys`, as the database has them (adding any it lacks). */
export function recordKeyPositions(db: Db): Map<string, number> {
  const rows = db.prepare('SELECT position, key FROM transaction_record_keys ORDER BY position').all() as { position: number; key: string }[];
  const positions = new Map(rows.map((r) => [r.key, r.position]));
  const missing = RECORD_FIELDS.filter((k) => !positions.has(k));
  if (missing.length > 0) {
    const add = db.prepare('INSERT INTO transaction_record_keys (position, key) VALUES (?, ?)');
    db.transaction(() => {
      let next = rows.length === 0 ? 0 : (rows[rows.length - 1] as { position: number }).position + 1;
      for (const k of missing) {
        add.run(next, k);
        positions.set(k, next++);
      }
    })();
  }
  return positions;
}

/** Rows for migration 107: every key of today's record, in the record's order. */
export function initialKeyPositions(): [number, string][] {
  return RECORD_FIELDS.map((k, i) => [i, k]);
}

const SUFFIX_CACHE_LIMIT = 4096;

export class RecordStorage {
  /** Serialises a record's set keys and names them (compiled once from the positions). */
  readonly store: (d: Record<string, unknown>) => StoredRecord;
  private readonly bitsOf: { key: string; word: number; bit: number }[];
  private readonly suffixes = new Map<string, string>();
  private readonly suffixBuffers = new Map<string, Buffer>();

  constructor(positions: ReadonlyMap<string, number>) {
    this.bitsOf = RECORD_FIELDS.map((key) => {
      const p = positions.get(key);
      if (p === undefined) throw new Error(`transaction record key ${key} has no stored position`);
      return { key, word: p >>> 5, bit: p & 31 };
    });
    const words = Math.max(...this.bitsOf.map((b) => b.word)) + 1;
    // One function with a statement per key: monomorphic reads of the record literal
    // (transaction-doc.ts emptyDoc), no per-key closure or array. It copies the kept keys into
    // a new object, in the record's order, and serialises that once: the result is one flat
    // string (built by `+=` it was a rope of ~70 pieces, which the SQLite binding and every
    // later slice had to flatten again: 2% of the engine's time in V8's flattening).
    const lines: string[] = [];
    lines.push(`let v; const o = {}; ${Array.from({ length: words }, (_, i) => `let w${i} = 0;`).join(' ')}`);
    for (const [i, { key, word, bit }] of this.bitsOf.entries()) {
      const q = JSON.stringify(key);
      const mark = `w${word} |= ${(1 << bit) | 0};`;
      if (IN_PLACE_KEYS.has(key)) lines.push(`v = d[${q}]; o[${q}] = v === undefined ? null : v; ${mark}`);
      else if (i === 0) throw new Error('the record must start with a key that is always stored');
      else lines.push(`v = d[${q}]; if (v !== null && v !== undefined) { o[${q}] = v; ${mark} }`);
    }
    const hex = Array.from({ length: words }, (_, i) => `H(w${i})`).join(' + ');
    const body = `return function store(d) { ${lines.join('\n')} return { doc: JSON.stringify(o), keys: ${hex} }; };`;
    const hex8 = (w: number): string => (BYTE_HEX[(w >>> 24) & 255] as string) + (BYTE_HEX[(w >>> 16) & 255] as string) + (BYTE_HEX[(w >>> 8) & 255] as string) + (BYTE_HEX[w & 255] as string);
    this.store = new Function('H', body)(hex8) as (d: Record<string, unknown>) => StoredRecord;
  }

  /**
   * `,"k":null` for each key a doc with these keys lacks (cached per key set). Joined from an
   * array, so the cached string is flat: built with `+=` it was a rope of ~70 pieces that V8
   * walked again each time an answer holding it was flattened (measured: 2.6% of the engine's
   * time in String::WriteToFlat on the sale path, 0.9% with the flat string).
   */
  private suffix(keys: string): string {
    let s = this.suffixes.get(keys);
    if (s === undefined) {
      const parts: string[] = [];
      for (const { key, word, bit } of this.bitsOf) {
        const w = word * 8 < keys.length ? parseInt(keys.slice(word * 8, word * 8 + 8), 16) : 0;
        if (((w >>> bit) & 1) === 0) parts.push(`,${JSON.stringify(key)}:null`);
      }
      s = parts.join('');
      if (this.suffixes.size < SUFFIX_CACHE_LIMIT) this.suffixes.set(keys, s);
    }
    return s;
  }

  /** The whole record's JSON (every key) from a stored doc. */
  json(doc: string, keys: string | null): string {
    return keys === null ? doc : `${this.open(doc, keys)}}`;
  }

  /**
   * The whole record's JSON without its closing brace, for an answer that adds keys after
   * them (`_links`): joined from the stored doc, never cut from a joined string (cutting a
   * joined string makes V8 copy it whole first).
   */
  open(doc: string, keys: string | null): string {
    return keys === null ? doc.slice(0, -1) : `${doc.slice(0, -1)}${this.suffix(keys)}`;
  }

  /** The whole record as an object. */
  parse(doc: string, keys: string | null): Record<string, unknown> {
    return JSON.parse(this.json(doc, keys)) as Record<string, unknown>;
  }

  /** The bytes to put after a stored doc (without its closing brace) for the whole record: the null keys, no brace. */
  suffixBytes(keys: string | null): Buffer {
    if (keys === null) return EMPTY;
    let b = this.suffixBuffers.get(keys);
    if (b === undefined) {
      b = Buffer.from(this.suffix(keys));
      if (this.suffixBuffers.size < SUFFIX_CACHE_LIMIT) this.suffixBuffers.set(keys, b);
    }
    return b;
  }
}

const EMPTY = Buffer.alloc(0);
