/**
 * The notification outbox over real HTTP and real SMTP: GET /v2/notifications lists every
 * queued e-mail and SMS with its link; the SMTP transport (nodemailer) delivers unsent
 * e-mail to a real local SMTP server (smtp-server, port 0, AUTH PLAIN/LOGIN) started here,
 * and records sent_ts, or send_error when the server refuses; attachment sources are used.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { MAX_SEND_ATTEMPTS } from '../../../electron/gateway/notifications/smtp-mailer';
import { smtpFromCli, smtpFromUrl } from '../../../electron/gateway/notifications/smtp-settings';
import { createNotificationsModule, NO_MAIL_SERVER } from '../../../electron/gateway/notifications/notifications-module';
import { defaultModules } from '../../../electron/gateway/engine-modules';
import { TestEngine } from '../helpers/engine-fixture';

interface Mail { from: string; to: string[]; raw: string; user: string | undefined }

const engines: TestEngine[] = [];
const servers: SMTPServer[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  for (const s of servers.splice(0)) await new Promise<void>((r) => s.close(() => r()));
});

async function smtp(opts: { refuse?: string } = {}) {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, cb) {
      if (auth.username === 'shop' && auth.password === 'mail-pw') cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, cb) {
      if (opts.refuse && address.address === opts.refuse) return cb(new Error('550 No such mailbox'));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: session.user as string | undefined,
        });
        cb();
      });
    },
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as { port: number }).port;
  return { mails, port };
}

async function engineWith(port: number, extra: { attach?: boolean } = {}) {
  const notifications = createNotificationsModule();
  if (extra.attach) notifications.addAttachmentSource((row) => (row.kind === 'quick_invoice' ? [{ filename: 'invoice.txt', content: `Invoice for ${row.resource_id ?? ''}` }] : []));
  const modules = defaultModules().map((m) => (m.name === 'notifications' ? notifications : m));
  const te = await TestEngine.start({ schedulerIntervalMs: 0, modules, smtp: { host: '127.0.0.1', port, secure: false, user: 'shop', pass: 'mail-pw', from: 'Demo Store <store@example.com>' } });
  engines.push(te);
  return te;
}

const sale = (te: TestEngine, email: string) =>
  te.post('/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '12.34', location_id: te.locationId, notification_email_address: email } });

describe('notification outbox and SMTP transport', () => {
  it('lists every e-mail and SMS with its link through GET /v2/notifications, newest first, filterable', async () => {
    const te = await TestEngine.start({ schedulerIntervalMs: 0 });
    engines.push(te);
    expect((await sale(te, 'pat@example.com')).status).toBe(201);
    te.engine.ctx.notify({ locationId: te.locationId, channel: 'sms', to: '5551234567', subject: 'Pay link', body: 'Pay here', kind: 'paylink', link: 'http://127.0.0.1/pay/abc', createdTs: te.engine.clock.now() + 5 });
    const all = await te.get('/notifications');
    expect(all.status).toBe(200);
    expect(all.body.notifications.map((n: { channel: string }) => n.channel)).toEqual(['sms', 'email']);
    expect(all.body.notifications[0]).toMatchObject({ channel: 'sms', to_address: '5551234567', kind: 'paylink', link: 'http://127.0.0.1/pay/abc', sent_ts: null });
    // Not sent (no mail server here; its send_error is the next test's).
    expect(all.body.notifications[1]).toMatchObject({ channel: 'email', to_address: 'pat@example.com', kind: 'receipt', sent_ts: null });
    expect(all.body.notifications[1].body).toContain('$12.34');
    expect(all.body.notifications[1].body).not.toContain('4111111111111111');
    expect(all.body.meta.pagination.totalCount).toBe(2);
    const sms = await te.get('/notifications?channel=sms');
    expect(sms.body.notifications).toHaveLength(1);
    const one = await te.get(`/notifications/${all.body.notifications[1].id}`);
    expect(one.body.notification.id).toBe(all.body.notifications[1].id);
    expect((await te.get('/notifications', { creds: null })).status).toBe(401);
  });

  it('without a mail server, unsent e-mail says why it waits (send_error, nothing tried); an SMS is left as it was', async () => {
    const te = await TestEngine.start({ schedulerIntervalMs: 0 });
    engines.push(te);
    expect((await sale(te, 'pat@example.com')).status).toBe(201);
    te.engine.ctx.notify({ locationId: te.locationId, channel: 'sms', to: '5551234567', subject: 'Pay link', body: 'Pay here', kind: 'paylink', link: 'http://127.0.0.1/pay/abc' });
    await te.engine.ctx.runDueWork(te.locationId);
    const email = (await te.get('/notifications?channel=email')).body.notifications[0];
    expect(email).toMatchObject({ sent_ts: null, send_attempts: 0, send_error: NO_MAIL_SERVER });
    expect((await te.get('/notifications?channel=sms')).body.notifications[0]).toMatchObject({ sent_ts: null, send_error: null });
  });

  it('without a mail server, an e-mail says why it waits the moment it is queued: no timer polls the outbox (a refused request writes nothing meanwhile)', async () => {
    const te = await TestEngine.start({ schedulerIntervalMs: 0 });
    engines.push(te);
    expect((await sale(te, 'sam@example.com')).status).toBe(201);
    // No due work run, no wait: the row was written with its reason.
    const row = te.engine.db.prepare("SELECT send_error, send_attempts FROM notification_outbox WHERE channel = 'email'").get();
    expect(row).toEqual({ send_error: NO_MAIL_SERVER, send_attempts: 0 });
  });

  it("e-mails a quick invoice with its stored file attached when attach_files_to_email is 1 (the engine's own wiring)", async () => {
    const { mails, port } = await smtp();
    const te = await TestEngine.start({ schedulerIntervalMs: 0, smtp: { host: '127.0.0.1', port, secure: false, user: 'shop', pass: 'mail-pw', from: 'Demo Store <store@example.com>' } });
    engines.push(te);
    const form = new FormData();
    for (const [k, v] of Object.entries({ title: 'Fence repair', due_date: '2030-06-10', location_id: te.locationId, email: 'pat@example.com', attach_files_to_email: '1', 'item_list][Labour': '120' })) form.set(`quickinvoice[${k}]`, v);
    form.set('quickinvoice[files][0]', new Blob(['Quote: fence repair, two panels.'], { type: 'text/plain' }), 'quote.txt');
    const c = te.creds;
    const res = await fetch(te.url('/quickinvoices'), { method: 'POST', headers: { 'developer-id': c.developerId, 'user-id': c.userId, 'user-api-key': c.apiKey }, body: form });
    expect(res.status).toBe(201);
    await te.engine.ctx.runDueWork();
    const invoiceMail = mails.find((m) => m.to.includes('pat@example.com'));
    expect(invoiceMail?.raw).toMatch(/filename="?quote\.txt"?/);
    expect(invoiceMail?.raw).toContain(Buffer.from('Quote: fence repair, two panels.').toString('base64').slice(0, 40));
  });

  it('delivers unsent e-mail to a real SMTP server with authentication and records sent_ts; SMS stays queued', async () => {
    const { mails, port } = await smtp();
    const te = await engineWith(port);
    expect((await sale(te, 'pat@example.com')).status).toBe(201);
    te.engine.ctx.notify({ locationId: te.locationId, channel: 'sms', to: '5551234567', subject: 'SMS', body: 'text', kind: 'paylink' });
    const before = te.engine.clock.now();
    await te.engine.ctx.runDueWork();
    const after = te.engine.clock.now();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ from: 'store@example.com', to: ['pat@example.com'], user: 'shop' });
    expect(mails[0]!.raw).toMatch(/^Subject: Your receipt from /m);
    expect(mails[0]!.raw).toContain('Sale: $12.34');
    expect(mails[0]!.raw).not.toContain('4111111111111111');
    const list = (await te.get('/notifications')).body.notifications as { channel: string; sent_ts: number | null; send_attempts: number }[];
    const email = list.find((n) => n.channel === 'email');
    // Sent during the due work (the clock is in seconds: the delivery may fall in the next one).
    expect(email?.sent_ts).toBeGreaterThanOrEqual(before);
    expect(email?.sent_ts).toBeLessThanOrEqual(after);
    expect(email?.send_attempts).toBe(1);
    expect(list.find((n) => n.channel === 'sms')?.sent_ts).toBeNull();
    await te.engine.ctx.runDueWork();
    expect(mails).toHaveLength(1); // sent once
  });

  it('records the server\'s refusal in send_error and gives up after MAX_SEND_ATTEMPTS', async () => {
    const { mails, port } = await smtp({ refuse: 'nobody@example.com' });
    const te = await engineWith(port);
    await sale(te, 'nobody@example.com');
    for (let i = 0; i < MAX_SEND_ATTEMPTS + 2; i++) await te.engine.ctx.runDueWork();
    expect(mails).toHaveLength(0);
    const n = (await te.get('/notifications')).body.notifications[0];
    expect(n.sent_ts).toBeNull();
    expect(n.send_attempts).toBe(MAX_SEND_ATTEMPTS);
    expect(n.send_error).toContain('No such mailbox');
  });

  it('attaches the files a registered attachment source returns for a row', async () => {
    const { mails, port } = await smtp();
    const te = await engineWith(port, { attach: true });
    te.engine.ctx.notify({ locationId: te.locationId, channel: 'email', to: 'buyer@example.com', subject: 'Invoice', body: 'Your invoice', kind: 'quick_invoice', resourceType: 'quickinvoice', resourceId: 'QI-1' });
    await te.engine.ctx.runDueWork();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.raw).toMatch(/filename="?invoice\.txt"?/);
    expect(mails[0]!.raw).toContain(Buffer.from('Invoice for QI-1').toString('base64'));
  });

  it('reads its settings from the CLI flags (password from the environment) or RINGUP_SMTP_URL', () => {
    expect(smtpFromCli(['--smtp-host', 'mail.local', '--smtp-port', '2525', '--smtp-user', 'u', '--smtp-secure'], { RINGUP_SMTP_PASSWORD: 'pw' })).toEqual({ host: 'mail.local', port: 2525, secure: true, user: 'u', pass: 'pw' });
    expect(smtpFromCli([], { RINGUP_SMTP_URL: 'smtps://a%40b:p%3Aw@mx.example.com' })).toEqual({ host: 'mx.example.com', port: 465, secure: true, user: 'a@b', pass: 'p:w' });
    expect(smtpFromCli([], {})).toBeUndefined();
    expect(() => smtpFromUrl('http://x')).toThrow(/RINGUP_SMTP_URL/);
  });
});
