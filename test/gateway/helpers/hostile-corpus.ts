/**
 * What an attacker sends, shared by the hostile runs (hostile-input.test.ts over every
 * declared resource, hostile-run.test.ts over every documented operation and the protocol):
 * values of every JSON type and then some, hostile ids, list parameters and path tails.
 */

export const deep = (n: number): unknown => {
  let v: unknown = 'bottom';
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};
export const deepArray = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = [v];
  return v;
};

export const SQLISH = "'; DROP TABLE users; -- \" OR 1=1 /*";
export const HOSTILE_VALUES: unknown[] = [
  123,
  -1,
  1e308,
  -0,
  2 ** 70,
  1.5,
  true,
  false,
  [],
  [1, 2, 3],
  {},
  { nested: { deeper: [1, { x: 'y' }] } },
  '',
  ' ',
  'x'.repeat(5000),
  'é😀\u0000\u202e\uFEFF漢字',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  SQLISH,
  '%_%\\',
  '0000-00-00',
  deep(1000),
  deepArray(1000),
  deep(33),
  deepArray(40),
  { constructor: 1, toString: 'x', hasOwnProperty: null, valueOf: [] },
  '4111 1111 1111 1111',
  { note: '5555-5555-5555-4444' },
];

export const HOSTILE_IDS = ['nope', "1' OR '1'='1", '%00', '..%2F..%2Fetc%2Fpasswd', 'é😀', 'x'.repeat(300), '-1', '0', '1e308', 'null'];

export const LIST_QUERIES = [
  'page=-1',
  'page=abc',
  'page=1e308',
  'page_size=0',
  'page_size=-5',
  'page_size=99999999999999999999',
  'sort=;DROP%20TABLE%20users',
  'sort=-',
  'sort=',
  'sort=-id',
  'expand=../../etc,__proto__,constructor',
  'page=1&page=2&page_size=1&page_size=2',
  'api_id=true',
  'created_ts=custom&created_ts_from=abc',
  'created_ts=1|2|3',
  'created_ts=|',
  'created_ts=next%20year',
  'id=%27%20OR%201%3D1',
  `location_id=${encodeURIComponent(SQLISH)}`,
  'sort=constructor',
  'sort=-toString',
  'constructor=1',
  'toString=x&__proto__=y',
  '%ff=1',
  'sort=%ff',
  'expand=%c0%af',
  'description=4111111111111111',
];

/** Raw (not re-encoded) path suffixes: bad percent-encodings and overlong segments. */
export const RAW_PATH_TAILS = ['/%ff', '/%', '/%zz', '/%c0%af', '/%00', `/${'x'.repeat(9000)}`, '/a/b/c', '/%2e%2e/%2e%2e'];
