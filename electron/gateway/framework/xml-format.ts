/**
 * XML bodies, as the interface allows ("a JSON or XML payload may be chosen"):
 * `Content-Type: application/xml` in, `Accept: application/xml` out (and an XML request
 * without an Accept preference is answered in XML). The shape follows the JSON one,
 * written the way Yii's XML formatter writes it — the interface family's framework:
 * one `<response>` root, object keys as elements, list entries as `<item>`, errors as
 * `<response><errors><field><item>message</item></field></errors></response>`.
 *
 * In: the root element is the wrapper (`<transaction>…</transaction>`; a `<request>`
 * root around it is unwrapped); every value arrives as a string, which the validators
 * accept for numbers and booleans; an element holding only `<item>` children is a list;
 * an empty element is "". DOCTYPE/ENTITY declarations are refused (no entity expansion).
 * Simplification: attributes are ignored.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ApiError, MSG } from './errors';

const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, processEntities: true, htmlEntities: false });

function listify(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(listify);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0] === 'item') {
    const items = o.item;
    return (Array.isArray(items) ? items : [items]).map(listify);
  }
  for (const k of keys) o[k] = listify(o[k]);
  return o;
}

export function parseXmlBody(text: string): unknown {
  if (/<!(DOCTYPE|ENTITY)/i.test(text)) throw new ApiError(400, { general: [MSG.MALFORMED_XML] });
  if (XMLValidator.validate(text) !== true) throw new ApiError(400, { general: [MSG.MALFORMED_XML] });
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(text) as Record<string, unknown>;
  } catch {
    throw new ApiError(400, { general: [MSG.MALFORMED_XML] });
  }
  delete doc['?xml'];
  const roots = Object.keys(doc);
  if (roots.length === 1 && roots[0] === 'request' && doc.request && typeof doc.request === 'object') return listify(doc.request);
  return listify(doc);
}

const NAME = /^[A-Za-z_][\w.-]*$/;
// Characters XML 1.0 cannot carry at all are dropped from answers.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!).replace(NOT_XML_CHAR, '');

function write(out: string[], name: string, v: unknown): void {
  const safe = NAME.test(name) && !/^xml/i.test(name);
  const open = safe ? `<${name}>` : `<item name="${escape(name)}">`;
  const close = safe ? `</${name}>` : '</item>';
  if (v === null || v === undefined) {
    out.push(safe ? `<${name}/>` : `<item name="${escape(name)}"/>`);
    return;
  }
  if (Array.isArray(v)) {
    out.push(open);
    for (const x of v) write(out, 'item', x);
    out.push(close);
    return;
  }
  if (typeof v === 'object') {
    out.push(open);
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) write(out, k, x);
    out.push(close);
    return;
  }
  out.push(open, escape(typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v)), close);
}

export function toXml(body: unknown): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n<response>'];
  if (body && typeof body === 'object' && !Array.isArray(body)) for (const [k, v] of Object.entries(body as Record<string, unknown>)) write(out, k, v);
  else if (body !== undefined) write(out, 'item', body);
  out.push('</response>\n');
  return out.join('');
}

const XML_TYPE = /^(application|text)\/([\w.-]+\+)?xml\b/i;

export function isXmlType(contentType: string | undefined): boolean {
  return !!contentType && XML_TYPE.test(contentType.trim());
}

const MENTIONS_XML = /xml/i;

/** XML out when Accept prefers XML over JSON, or — with no preference — when the request body was XML. */
export function wantsXml(accept: string | undefined, contentType: string | undefined): boolean {
  // Every answer asks this; nearly every request names no XML at all.
  if (!(accept !== undefined && MENTIONS_XML.test(accept)) && !(contentType !== undefined && MENTIONS_XML.test(contentType))) return false;
  const a = (accept ?? '').toLowerCase();
  const xmlAt = a.search(/(application|text)\/([\w.-]+\+)?xml/);
  const jsonAt = a.search(/application\/([\w.-]+\+)?json/);
  if (xmlAt >= 0) return jsonAt < 0 || xmlAt < jsonAt;
  if (jsonAt >= 0) return false;
  return isXmlType(contentType);
}
