/**
 * A location's pay_page_url (engine extension, issue 21): the public address its pay links
 * and invoices are opened at. Set, the pay link's payment_url and the e-mail's link use it;
 * cleared (''), they go back to the engine's own origin; no web link is refused with the
 * {"errors": …} envelope. Real HTTP against a test engine.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TestEngine, errorsOf } from '../helpers/engine-fixture';

const engines: TestEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

describe('location pay_page_url', () => {
  it('is what pay links and their e-mail link to; cleared, the engine origin again; a bad one is a 422 envelope', async () => {
    const te = await TestEngine.start({ schedulerIntervalMs: 0 });
    engines.push(te);
    const loc = `/locations/${te.locationId}`;
    const link = async () => {
      const r = await te.post('/paylinks?expand=payment_url', { paylink: { location_id: te.locationId, amount_due: '5.00', email: 'pat@example.com', delivery_method: 1 } });
      expect(r.status).toBe(201);
      return r.body.paylink as { id: string; payment_url: string };
    };
    const bad = await te.put(loc, { location: { pay_page_url: 'ftp://pay.example.com' } });
    expect(bad.status).toBe(422);
    expect(errorsOf(bad, 'pay_page_url').length).toBe(1);

    expect((await te.put(loc, { location: { pay_page_url: 'https://pay.example.com/' } })).status).toBe(200);
    const p = await link();
    expect(p.payment_url).toBe(`https://pay.example.com/paylink?paylink_id=${p.id}`);
    const mail = (await te.get(`/notifications?resource_id=${p.id}`)).body.notifications[0] as { link: string; body: string };
    expect(mail.link).toBe(p.payment_url);
    expect(mail.body).toContain(p.payment_url);

    expect((await te.put(loc, { location: { pay_page_url: '' } })).status).toBe(200);
    const q = await link();
    expect(q.payment_url).toBe(`${new URL(te.url('/')).origin}/paylink?paylink_id=${q.id}`);
  });
});
