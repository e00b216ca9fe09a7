/**
 * Single sign-on links (/custom/sso, /custom/contactsso) and the hosted pages they land
 * on, over real HTTP with a real SQLite engine: hex and encrypted payloads, contact
 * create/update, the charge page running a real sale, and every way a link must fail.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OAUTH_MSG } from '../../../electron/gateway/oauth/oauth-messages';
import { TestEngine } from '../helpers/engine-fixture';
import { Browser, field, html } from './browser';
import { badPaddingData, encryptData, encryptText, flipIvByte, hexData, ssoUrl } from './sso-links';

let te: TestEngine;
let origin: string;
let key: string;

beforeAll(async () => {
  te = await TestEngine.start();
  const c = te.engine.credentials as unknown as { auth_url: string; developer_encryption_key: string };
  origin = c.auth_url;
  key = c.developer_encryption_key;
});
afterAll(() => te.close());
beforeEach(() => te.clock.release());

let seq = 0;
const now = () => te.clock.now();
/**
 * A sign-in is once per user, location, contact and timestamp (sso-replay.ts): each link these
 * helpers build is its own sign-in, so each gets its own second on the engine's clock.
 */
const nextSecond = () => {
  te.clock.advance(1);
  return now();
};

function standard(extra: Record<string, unknown> = {}) {
  seq++;
  return {
    contact_api_id: `cust-${seq}`,
    timestamp: nextSecond(),
    first_name: 'Ada',
    last_name: 'Lovelace',
    location_id: te.locationId,
    user_id: te.creds.userId,
    user_api_key: te.creds.apiKey,
    ...extra,
  };
}

function vt(params: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  seq++;
  return { location_id: te.locationId, params: { ...params, order_num: `ord${seq}` }, route_name: 'virtualterminal', timestamp: nextSecond(), user_id: te.creds.userId, user_api_key: te.creds.apiKey, ...extra };
}

const dev = () => te.creds.developerId;

async function refused(url: string, status: number, message: string) {
  const b = new Browser();
  const page = await b.get(url);
  expect(page.status).toBe(status);
  expect(page.location).toBeNull();
  expect(page.text).toContain(html(message));
  expect(b.cookies.size).toBe(0);
}

describe('SSO links', () => {
  it('standard data (hex) creates the contact, then a new link updates it; the user lands signed in', async () => {
    const data = standard({ email: 'ada@example.com', city: 'London' });
    const b = new Browser();
    const res = await b.get(ssoUrl(origin, '/custom/contactsso', dev(), { data: hexData(data) }));
    expect(res.status).toBe(302);
    expect(res.location).toBe('/hosted/contacts');
    expect(b.cookies.has('ringup_hosted')).toBe(true);
    const landing = await b.get(`${origin}${res.location}`);
    expect(landing.status).toBe(200);
    expect(landing.text).toContain('Contact saved.');
    expect(landing.text).toContain('ada@example.com');
    const found = await te.get(`/contacts?contact_api_id=${data.contact_api_id}&location_id=${te.locationId}`);
    expect(found.body.contacts).toHaveLength(1);
    expect(found.body.contacts[0]).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', city: 'London' });

    const update = { ...data, timestamp: now() + 1, last_name: 'King', city: 'Ockham' };
    const again = await new Browser().get(ssoUrl(origin, '/custom/contactsso', dev(), { data: hexData(update) }));
    expect(again.status).toBe(302);
    const after = await te.get(`/contacts?contact_api_id=${data.contact_api_id}&location_id=${te.locationId}`);
    expect(after.body.contacts).toHaveLength(1);
    expect(after.body.contacts[0]).toMatchObject({ last_name: 'King', city: 'Ockham' });
  });

  it('encrypted data (e_data) works under the developer encryption key, at /custom/sso by POST too', async () => {
    const res = await fetch(`${origin}/custom/sso`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'developer-id': dev(), e_data: encryptData(standard(), key) }).toString(),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/hosted/contacts');
  });

  it('a link works once: replaying it (even re-encrypted under a new IV) is refused', async () => {
    const data = standard();
    const b = new Browser();
    expect((await b.get(ssoUrl(origin, '/custom/contactsso', dev(), { e_data: encryptData(data, key) }))).status).toBe(302);
    await refused(ssoUrl(origin, '/custom/contactsso', dev(), { e_data: encryptData(data, key) }), 409, OAUTH_MSG.SSO_REPLAYED);
    await refused(ssoUrl(origin, '/custom/contactsso', dev(), { data: hexData(data) }), 409, OAUTH_MSG.SSO_REPLAYED);
  });

  it('a used link stays used whatever its encoding: IV bytes flipped to rewrite its first characters are refused (409)', async () => {
    // What an attacker who saw one used e_data link can do without the key: XOR IV bytes, which
    // rewrites the first 16 characters of its JSON and nothing else (CBC). Each rewrite below
    // still parses and still signs in the same user, for the same contact, at the same timestamp.
    const link = (path: '/custom/sso' | '/custom/contactsso', e: string) => ssoUrl(origin, path, dev(), { e_data: e });
    // 1, 2: a pretty-printed link (as PHP's JSON_PRETTY_PRINT writes it): "\n" → "\r", " " → "\t".
    const pretty = encryptText(JSON.stringify(standard(), null, 2), key);
    // 3: a link that begins with the first name: "Ada" → "Eda" (the contact's name, not who signs in).
    const { first_name, ...rest } = standard();
    const named = encryptText(JSON.stringify({ first_name, ...rest }), key);
    // 4: a virtual-terminal link that begins with its page: "contacts" → "accounts".
    const { route_name: _r, ...page } = vt({});
    const routed = encryptText(JSON.stringify({ route: 'contacts', ...page }), key);
    const contacts = Buffer.from('contac');
    const accounts = Buffer.from('accoun');
    let toAccounts = routed;
    for (let i = 0; i < 6; i++) toAccounts = flipIvByte(toAccounts, 10 + i, (contacts[i] ?? 0) ^ (accounts[i] ?? 0));
    for (const [path, e] of [['/custom/contactsso', pretty], ['/custom/contactsso', named], ['/custom/sso', routed]] as const) {
      expect((await new Browser().get(link(path, e))).status).toBe(302);
    }
    const replays = [
      link('/custom/contactsso', flipIvByte(pretty, 1, 0x0a ^ 0x0d)),
      link('/custom/contactsso', flipIvByte(pretty, 2, 0x20 ^ 0x09)),
      link('/custom/contactsso', flipIvByte(named, 15, 0x41 ^ 0x45)),
      link('/custom/sso', toAccounts),
    ];
    const answers = [];
    for (const url of replays) answers.push((await new Browser().get(url)).status);
    expect(answers).toEqual([409, 409, 409, 409]);
    for (const url of replays) await refused(url, 409, OAUTH_MSG.SSO_REPLAYED);
    // No contact was renamed by a replay.
    const found = await te.get(`/contacts?contact_api_id=${rest.contact_api_id}&location_id=${te.locationId}`);
    expect(found.body.contacts[0].first_name).toBe('Ada');
  });

  it('different sign-ins of the same user at the same timestamp each work once (two contacts, a page)', async () => {
    const ts = nextSecond();
    expect((await new Browser().get(ssoUrl(origin, '/custom/contactsso', dev(), { data: hexData(standard({ timestamp: ts })) }))).status).toBe(302);
    expect((await new Browser().get(ssoUrl(origin, '/custom/contactsso', dev(), { data: hexData(standard({ timestamp: ts })) }))).status).toBe(302);
    const page = ssoUrl(origin, '/custom/sso', dev(), { data: hexData(vt({}, { timestamp: ts })) });
    expect((await new Browser().get(page)).status).toBe(302);
    // Another page at the same second is the same sign-in (the cost named in sso-replay.ts).
    await refused(ssoUrl(origin, '/custom/sso', dev(), { data: hexData(vt({}, { timestamp: ts, route_name: 'dashboard' })) }), 409, OAUTH_MSG.SSO_REPLAYED);
  });

  it('links expire 15 minutes after their timestamp; future timestamps are refused', async () => {
    const data = standard();
    te.clock.advance(15 * 60);
    const atLimit = await new Browser().get(ssoUrl(origin, '/custom/contactsso', dev(), { data: hexData(data) }));
    expect(atLimit.status).toBe(302);
    const old = standard({ timestamp: now() - 15 * 60 - 1 });
    await refused(ssoUrl(origin, '/custom/contactsso', dev(), { data: hexData(old) }), 400, OAUTH_MSG.SSO_EXPIRED);
    await refused(ssoUrl(origin, '/custom/contactsso', dev(), { data: hexData(standard({ timestamp: now() + 3600 })) }), 400, OAUTH_MSG.SSO_FUTURE);
  });

  it('tampered, badly encoded or foreign links get a clear error page, never a session or a 5xx', async () => {
    const enc = encryptData(standard(), key);
    // Flip a byte of the last ciphertext block: the padding (or the JSON) breaks.
    const last = enc.length - 2;
    const tampered = enc.slice(0, last) + ((parseInt(enc.slice(last), 16) ^ 0x5a).toString(16).padStart(2, '0'));
    await refused(ssoUrl(origin, '/custom/sso', dev(), { e_data: tampered }), 400, OAUTH_MSG.SSO_BAD_CIPHER);
    await refused(ssoUrl(origin, '/custom/sso', dev(), { e_data: encryptData(standard(), randomBytes(32).toString('hex')) }), 400, OAUTH_MSG.SSO_BAD_CIPHER);
    await refused(ssoUrl(origin, '/custom/sso', dev(), { e_data: badPaddingData(key) }), 400, OAUTH_MSG.SSO_BAD_CIPHER);
    await refused(ssoUrl(origin, '/custom/sso', dev(), { e_data: enc.slice(0, enc.length - 2) }), 400, OAUTH_MSG.SSO_BAD_CIPHER);
    await refused(ssoUrl(origin, '/custom/sso', dev(), { e_data: enc.slice(0, 40) }), 400, OAUTH_MSG.SSO_BAD_CIPHER);
    await refused(ssoUrl(origin, '/custom/sso', dev(), { data: 'zz' + hexData(standard()) }), 400, OAUTH_MSG.SSO_BAD_HEX);
    await refused(ssoUrl(origin, '/custom/sso', dev(), { data: hexData(standard()).slice(1) }), 400, OAUTH_MSG.SSO_BAD_HEX);
    await refused(ssoUrl(origin, '/custom/sso', dev(), { e_data: 'xyz' }), 400, OAUTH_MSG.SSO_BAD_HEX);
    await refused(ssoUrl(origin, '/custom/sso', dev(), { data: Buffer.from('not json').toString('hex') }), 400, OAUTH_MSG.SSO_BAD_JSON);
    await refused(ssoUrl(origin, '/custom/sso', dev(), { data: hexData([1, 2]) }), 400, OAUTH_MSG.SSO_BAD_JSON);
    await refused(ssoUrl(origin, '/custom/sso', dev(), {}), 400, OAUTH_MSG.SSO_NO_DATA);
    await refused(ssoUrl(origin, '/custom/sso', '00000000-0000-4000-8000-000000000000', { data: hexData(standard()) }), 403, OAUTH_MSG.SSO_DEVELOPER);
    await refused(ssoUrl(origin, '/custom/sso', dev(), { data: hexData(standard({ user_api_key: 'f'.repeat(32) })) }), 401, OAUTH_MSG.SSO_USER);
    await refused(ssoUrl(origin, '/custom/sso', dev(), { data: hexData(standard({ location_id: '00000000-0000-4000-8000-000000000000' })) }), 403, OAUTH_MSG.SSO_LOCATION);
    await refused(ssoUrl(origin, '/custom/sso', dev(), { data: hexData(standard({ last_name: '', timestamp: 'soon' })) }), 400, 'This link is missing or has a wrong value for: timestamp, last_name.');
    await refused(ssoUrl(origin, '/custom/sso', dev(), { data: hexData(vt({}, { route_name: '../admin' })) }), 400, 'This link is missing or has a wrong value for: route_name.');
  });

  it('hostile parameters never produce a 5xx', async () => {
    const junk = ['', '0', '00', 'ff'.repeat(40000), hexData('x'.repeat(5000)), hexData({ timestamp: 1e300 }), hexData({ timestamp: -1, user_id: {}, location_id: [] }), encryptData({ params: 'x', route: 7 }, key)];
    for (const path of ['/custom/sso', '/custom/contactsso'] as const) {
      for (const j of junk) {
        for (const name of ['data', 'e_data'] as const) {
          const res = await fetch(ssoUrl(origin, path, dev(), { [name]: j }), { redirect: 'manual' });
          expect(res.status).toBeLessThan(500);
          await res.text();
        }
      }
    }
    const posts = ['data=%ZZ', 'data[]=1&data[]=2', '&&&', 'developer-id=' + 'x'.repeat(100000)];
    for (const body of posts) {
      const res = await fetch(`${origin}/custom/sso`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      expect(res.status).toBeLessThan(500);
      await res.text();
    }
  });
});

describe('hosted charge page', () => {
  async function land(data: unknown): Promise<{ b: Browser; page: string }> {
    const b = new Browser();
    const res = await b.get(ssoUrl(origin, '/custom/sso', dev(), { e_data: encryptData(data, key) }));
    expect(res.status).toBe(302);
    expect(res.location).toBe('/hosted/virtualterminal');
    const page = await b.get(`${origin}/hosted/virtualterminal`);
    expect(page.status).toBe(200);
    return { b, page: page.text };
  }

  it('a virtual-terminal link prefills description and amount; the charge runs a real sale', async () => {
    const { b, page } = await land(vt({ transaction_amount: '12.34', description: 'Invoice <42>' }));
    expect(field(page, 'transaction_amount')).toBe('12.34');
    expect(field(page, 'description')).toBe('Invoice <42>');
    const done = await b.post(`${origin}/hosted/virtualterminal`, {
      csrf_token: field(page, 'csrf_token'), form_id: field(page, 'form_id'), transaction_amount: '12.34', description: 'Invoice <42>', account_number: '4111111111111111', exp_date: '1230', cvv: '999',
    });
    expect(done.status).toBe(201);
    expect(done.text).toContain('Approved: $12.34 on •••• 1111.');
    expect(done.text).not.toContain('4111111111111111');
    const list = await te.get(`/transactions?location_id=${te.locationId}&description=Invoice`);
    expect(list.body.transactions).toHaveLength(1);
    expect(list.body.transactions[0]).toMatchObject({ transaction_amount: '12.34', status_id: 101, description: 'Invoice <42>', last_four: '1111' });
  });

  it('standard data with transaction data lands on the charge page for that contact', async () => {
    const data = standard({ transaction_amt: 7.5, claim_id: 'C-9', line_items: [{ li_id: 1, qty: 1, description: 'Filling', line_total: 7.5 }] });
    const { b, page } = await land(data);
    expect(field(page, 'transaction_amount')).toBe('7.50');
    expect(field(page, 'description')).toBe('Claim C-9; Filling');
    const done = await b.post(`${origin}/hosted/virtualterminal`, {
      csrf_token: field(page, 'csrf_token'), form_id: field(page, 'form_id'), transaction_amount: '7.50', description: 'Claim C-9; Filling', account_number: '5454545454545454', exp_date: '1230',
    });
    expect(done.status).toBe(201);
    const contact = await te.get(`/contacts?contact_api_id=${data.contact_api_id}&location_id=${te.locationId}`);
    const txns = await te.get(`/transactions?location_id=${te.locationId}&contact_id=${contact.body.contacts[0].id}`);
    expect(txns.body.transactions).toHaveLength(1);
    expect(txns.body.transactions[0].transaction_amount).toBe('7.50');
  });

  it('declines, bad amounts and card errors come back as sentences, without the card number', async () => {
    const { b, page } = await land(vt({ transaction_amount: '5.00', description: 'deny me' }));
    const form = { csrf_token: field(page, 'csrf_token'), form_id: field(page, 'form_id'), description: 'deny me', account_number: '4111111111111111', exp_date: '1230' };
    const declined = await b.post(`${origin}/hosted/virtualterminal`, { ...form, transaction_amount: '5.00' });
    expect(declined.text).toMatch(/The card was declined: /);
    expect(declined.text).not.toContain('4111111111111111');
    const badAmount = await b.post(`${origin}/hosted/virtualterminal`, { ...form, transaction_amount: '1.234' });
    expect(badAmount.status).toBe(400);
    expect(badAmount.text).toContain(html(OAUTH_MSG.HOSTED_AMOUNT));
    const badCard = await b.post(`${origin}/hosted/virtualterminal`, { ...form, transaction_amount: '3.00', account_number: '4111111111111112' });
    expect(badCard.status).toBe(422);
    expect(badCard.text).toContain('The charge was not made: ');
    expect(badCard.text).not.toContain('4111111111111112');
  });

  it('a form sent twice (a double click, a reload) charges once: both answers show the one sale', async () => {
    const { b, page } = await land(vt({ transaction_amount: '6.66', description: 'twice' }));
    const form = { csrf_token: field(page, 'csrf_token'), form_id: field(page, 'form_id'), transaction_amount: '6.66', description: 'twice', account_number: '4111111111111111', exp_date: '1230' };
    const [a, c] = await Promise.all([b.post(`${origin}/hosted/virtualterminal`, form), b.post(`${origin}/hosted/virtualterminal`, form)]);
    const again = await b.post(`${origin}/hosted/virtualterminal`, form);
    for (const r of [a, c, again]) expect(r.text).toContain('Approved: $6.66 on •••• 1111.');
    const list = await te.get(`/transactions?location_id=${te.locationId}&description=twice`);
    expect(list.body.transactions).toHaveLength(1);
    // The page after a charge is a new form: the next sale is a new charge.
    const next = await b.get(`${origin}/hosted/virtualterminal`);
    expect(field(next.text, 'form_id')).not.toBe(form.form_id);
    const noId = await b.post(`${origin}/hosted/virtualterminal`, { ...form, form_id: 'x' });
    expect(noId.status).toBe(403);
  });

  it('the charge form needs its session and its CSRF token', async () => {
    const { b, page } = await land(vt({ transaction_amount: '1.00' }));
    const forged = await b.post(`${origin}/hosted/virtualterminal`, { csrf_token: 'x', transaction_amount: '1.00', account_number: '4111111111111111', exp_date: '1230' });
    expect(forged.status).toBe(403);
    const stranger = await new Browser().post(`${origin}/hosted/virtualterminal`, { csrf_token: field(page, 'csrf_token'), form_id: field(page, 'form_id'), transaction_amount: '1.00', account_number: '4111111111111111', exp_date: '1230' });
    expect(stranger.status).toBe(401);
    expect(stranger.text).toContain(html(OAUTH_MSG.HOSTED_SESSION));
    expect((await new Browser().get(`${origin}/hosted/virtualterminal`)).status).toBe(401);
    te.clock.advance(1801);
    expect((await b.get(`${origin}/hosted/virtualterminal`)).status).toBe(401);
    const count = await te.get(`/transactions?location_id=${te.locationId}&transaction_amount=1.00`);
    expect(count.body.transactions ?? []).toHaveLength(0);
  });

  it('route_name picks the page', async () => {
    const b = new Browser();
    const res = await b.get(ssoUrl(origin, '/custom/sso', dev(), { data: hexData(vt({}, { route_name: 'transactions' })) }));
    expect(res.location).toBe('/hosted/transactions');
    const page = await b.get(`${origin}/hosted/transactions`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Recent transactions');
    const dash = new Browser();
    const r2 = await dash.get(ssoUrl(origin, '/custom/sso', dev(), { data: hexData(vt({}, { route: 'dashboard', route_name: undefined })) }));
    expect(r2.location).toBe('/hosted/dashboard');
  });
});

describe('hosted pages without a session', () => {
  it('an unknown page and a missing session answer plain sentences', async () => {
    const b = new Browser();
    const nope = await b.get(`${origin}/hosted/admin`);
    expect(nope.status).toBe(404);
    expect(nope.text).toContain(html(OAUTH_MSG.HOSTED_NOT_FOUND));
    const out = await b.get(`${origin}/hosted/contacts`);
    expect(out.status).toBe(401);
    expect(out.text).toContain(html(OAUTH_MSG.HOSTED_SESSION));
  });
});
