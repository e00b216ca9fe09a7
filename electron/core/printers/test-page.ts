/**
 * The page **Test print** prints (receiptline text): the printer's name and settings, a ruler
 * of its characters per line (every character of the line is a digit, so a wrong setting shows
 * as a wrapped or short ruler), the logo when one is set, and a cut when it cuts.
 */
import type { PrinterSettings } from '../../../shared/ipc/contract';

/** A text as receiptline prints it literally (its markup characters escaped). */
export function literal(text: string): string {
  return text.replace(/[\\|{}~_"`^]/g, (c) => `\\${c}`).replace(/^([-=])/, '\\$1');
}

export function testPageDocument(p: PrinterSettings, at: string): string {
  const ruler = Array.from({ length: p.charsPerLine }, (_, i) => String((i + 1) % 10)).join('');
  const where = p.address.kind === 'tcp' ? `${p.address.host}:${p.address.port}` : `${p.address.path} at ${p.address.baud} baud`;
  return [
    ...(p.logo ? [`{image:${p.logo.slice('data:image/png;base64,'.length)}}`] : []),
    '^^Test print',
    '',
    `${literal(p.name)}`,
    '---',
    `|Connection | ${literal(where)}|`,
    `|Paper | ${p.paper}|`,
    `|Characters a line | ${p.charsPerLine}|`,
    `|Cut | ${p.cut ? 'yes' : 'no'}|`,
    `|Printed | ${literal(at)}|`,
    '---',
    `{width:*}`,
    `|${ruler}|`,
    '{width:auto}',
    '',
    'If the line of digits above fits on one line, the characters per line are right.',
    // receiptline cuts (or feeds the paper out) at the end itself.
  ].join('\n');
}
