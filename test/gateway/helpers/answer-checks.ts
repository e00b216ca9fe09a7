/**
 * Checks every answer of a generated run can take, whatever the request was: the error
 * envelope on every refusal, and integers written as integers.
 *
 * JSON.parse cannot tell `1795707778.0` from `1795707778`, so answers are read by a small
 * parser that keeps each number's text (`Lexeme`). Two rules follow:
 * - where the OpenAPI document types a value as integer, its text is an integer;
 * - anywhere in an answer, an integral value is never written with a fraction or exponent
 *   (JSON.stringify never writes one: such text comes from SQLite's JSON functions fed a
 *   bound JS number, which SQLite holds as REAL).
 */

/** A JSON number with its text as sent. */
export class Lexeme {
  constructor(readonly text: string) {}
  get value(): number {
    return Number(this.text);
  }
}

export type Parsed = null | boolean | string | Lexeme | Parsed[] | { [k: string]: Parsed };

/** JSON.parse that keeps each number's text; throws on malformed text like JSON.parse. */
export function parseKeepingNumbers(text: string): Parsed {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i] as string)) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`bad JSON at ${i}`);
  };
  const value = (): Parsed => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: { [k: string]: Parsed } = {};
      ws();
      if (text[i] === '}') return i++, out;
      for (;;) {
        ws();
        const k = value();
        if (typeof k !== 'string') fail();
        ws();
        if (text[i++] !== ':') fail();
        Object.defineProperty(out, k as string, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return i++, out;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      const out: Parsed[] = [];
      ws();
      if (text[i] === ']') return i++, out;
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return i++, out;
        else fail();
      }
    }
    if (c === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      return JSON.parse(text.slice(start, i)) as string;
    }
    const m = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 400));
    if (m) {
      i += m[0].length;
      return new Lexeme(m[0]);
    }
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    return fail();
  };
  const out = value();
  ws();
  if (i !== text.length) fail();
  return out;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document walked by key
type Doc = any;
type Schema = Record<string, unknown>;

function deref(doc: Doc, s: unknown): Schema | undefined {
  let cur = s as Schema | undefined;
  for (let n = 0; cur && typeof cur.$ref === 'string' && n < 20; n++) {
    cur = (cur.$ref as string)
      .slice(2)
      .split('/')
      .reduce<Doc>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as Schema | undefined;
  }
  return cur;
}

/** The alternatives a schema allows (anyOf/oneOf flattened; allOf kept whole). */
function branches(doc: Doc, s: unknown): Schema[] {
  const r = deref(doc, s);
  if (!r) return [];
  const alts = (r.anyOf ?? r.oneOf) as unknown[] | undefined;
  if (alts) return alts.flatMap((a) => branches(doc, a));
  if (Array.isArray(r.allOf)) return [r, ...(r.allOf as unknown[]).flatMap((a) => branches(doc, a))];
  return [r];
}

const typesOf = (s: Schema): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []);

/** Whether the schema says a number here must be an integer (no branch allows any number). */
function integerOnly(alts: Schema[]): boolean {
  const numeric = alts.filter((b) => typesOf(b).some((t) => t === 'integer' || t === 'number'));
  return numeric.length > 0 && numeric.every((b) => typesOf(b).includes('integer') && !typesOf(b).includes('number'));
}

/** Where an answer breaks the integer rules (see the top of the file); `schema` may be undefined (global rule only). */
export function integerViolations(doc: Doc, schema: unknown, value: Parsed, path = '$', out: string[] = []): string[] {
  const alts = schema === undefined ? [] : branches(doc, schema);
  if (value instanceof Lexeme) {
    const written = /^-?\d+$/.test(value.text);
    if (!written && Number.isInteger(value.value) && Math.abs(value.value) < 2 ** 53) out.push(`${path} = ${value.text} (an integral value written as a fraction)`);
    else if (!written && integerOnly(alts)) out.push(`${path} = ${value.text} (the document types it integer)`);
    return out;
  }
  if (Array.isArray(value)) {
    const items = alts.map((b) => b.items).filter((x) => x !== undefined);
    value.forEach((v, k) => integerViolations(doc, items.length ? { anyOf: items } : undefined, v, `${path}[${k}]`, out));
    return out;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const sub: unknown[] = [];
      for (const b of alts) {
        const props = b.properties as Record<string, unknown> | undefined;
        if (props && Object.hasOwn(props, k)) sub.push(props[k]);
        else if (b.additionalProperties && typeof b.additionalProperties === 'object') sub.push(b.additionalProperties);
      }
      integerViolations(doc, sub.length ? { anyOf: sub } : undefined, v, `${path}.${k}`, out);
    }
  }
  return out;
}

/** `{"errors": {"<field>": ["message", …], …}}`, nothing else. */
export function isEnvelopeText(text: string): boolean {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).join() !== 'errors') return false;
  const errs = (body as { errors: unknown }).errors;
  return (
    typeof errs === 'object' && errs !== null && !Array.isArray(errs) && Object.keys(errs).length > 0 &&
    Object.values(errs).every((v) => Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === 'string' && m.length > 0))
  );
}

/** The XML form of the envelope (an XML request is answered in XML). */
export const XML_ENVELOPE = /^<\?xml[^>]*>\n<response><errors>(<([\w.-]+)>(<item>[^<]*<\/item>)+<\/\2>)+<\/errors><\/response>\n$/;

/** The response schema the document gives an operation for a status (JSON content), if any. */
export function responseSchema(doc: Doc, path: string, method: string, status: number): unknown {
  const op = doc.paths?.[path]?.[method.toLowerCase()];
  if (!op) return undefined;
  const r = deref(doc, op.responses?.[String(status)] ?? op.responses?.[`${String(status)[0]}XX`]);
  const content = (r?.content ?? {}) as Record<string, { schema?: unknown }>;
  return content['application/json']?.schema;
}

/** Whether the document says this operation answers this status with an HTML page (the browser flows). */
export function documentsHtml(doc: Doc, path: string, method: string, status: number): boolean {
  const op = doc.paths?.[path]?.[method.toLowerCase()];
  const r = deref(doc, op?.responses?.[String(status)]);
  return !!r?.content && Object.hasOwn(r.content as object, 'text/html');
}

/** The documented path template (`/v2/contacts/{id}`) a concrete path is an instance of. */
export function templateOf(doc: Doc, method: string, path: string): string | undefined {
  const p = path.split('?')[0] as string;
  const m = method.toLowerCase();
  let best: string | undefined;
  for (const tpl of Object.keys(doc.paths as object)) {
    if (!doc.paths[tpl][m]) continue;
    const re = new RegExp(`^${tpl.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
    if (re.test(p) && (!best || !tpl.includes('{'))) best = tpl;
  }
  return best;
}
