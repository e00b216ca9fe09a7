/**
 * The recurring due work: for every recurring whose next_run_date has been reached in its
 * location's time zone (and sandbox clock), charge it through the normal transaction path
 * (a sale, or an ACH debit, from its account vault) with recurring_id, is_recurring and
 * trx_source_id 13, then step next_run_date to the next position. Runs missed while the
 * engine was stopped (or jumped over by the sandbox clock) are charged one by one, in date
 * order, each on its own run date.
 *
 * Never twice: the run is claimed by inserting (recurring_id, run_date) into
 * recurring_runs inside the same SQLite transaction (the payments writer's job) that
 * inserts the transaction and moves next_run_date. A kill -9 before that COMMIT leaves
 * nothing (the simulated processor keeps no state), after it leaves all three; a second
 * claim of the same run fails the primary key and writes nothing.
 *
 * Declines are stored transactions (status 301) and count as a run (installments run a
 * fixed number of times regardless of approval or decline). A run the transaction path
 * refuses outright (422, e.g. the product transaction was changed to another method) is
 * recorded with its error and also counts, so a broken recurring cannot retry forever.
 *
 * Notices: notification_days before a run (when > 0) the contact gets an e-mail (and an
 * SMS with a cell phone) through the one outbox, once per (recurring, run date). A run that
 * is charged late (catch-up) gets no notice for a date already past.
 */
import type { AuthInfo, EngineContext } from '../framework/context';
import { ApiError } from '../framework/errors';
import type { DueMoment, DueWork } from '../framework/due-work';
import type { Row } from '../framework/resource';
import type { PaymentsRuntime } from '../payments/payments-module';
import { derivedFields, scheduleOf } from './recurring-resource';
import { locationToday } from './location-today';
import { NO_DATE } from './recurring-schedule';

/** How many recurrings are charged at once (their writes share group commits). */
const PARALLEL_RUNS = 256;
/** status_id of a run the transaction path refused (no transaction was made). */
const NO_TRANSACTION_STATUS = null;

class RunAlreadyDone extends Error {}

function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

export class RecurringRunner {
  /** Recurrings being charged right now (a run that overlaps itself waits for the next pass). */
  private readonly busy = new Set<string>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly payments: () => PaymentsRuntime,
  ) {}

  dueWork(): DueWork[] {
    return [
      // Runs first: a clock jump past end_date still charges the runs dated before it, and
      // the notice pass then sees the next run date the runs moved to. The three passes of
      // one scheduler run share its moment (`at`): ending plans at a later day than the
      // runs were charged at would end plans with installments still owed.
      { name: 'recurring-runs', run: (loc, at) => this.runDue(loc, at) },
      { name: 'recurring-notices', run: (loc, at) => this.sendNotices(loc, at) },
      { name: 'recurring-ends', run: (loc, at) => this.endPassed(loc, at) },
    ];
  }

  /** The location's date at the run's moment (its own now when called outside a scheduler run). */
  private today(loc: string, at?: DueMoment): string {
    return locationToday(this.ctx, loc, at?.now(loc));
  }

  private locations(locationId?: string): string[] {
    if (locationId !== undefined) return [locationId];
    return (this.ctx.stmt("SELECT DISTINCT location_id FROM recurrings WHERE status != 'ended'").all() as { location_id: string }[]).map((r) => r.location_id);
  }

  /** Recurrings whose end_date has passed at their location are ended. */
  endPassed(locationId?: string, at?: DueMoment): void {
    for (const loc of this.locations(locationId)) {
      const today = this.today(loc, at);
      this.ctx
        .stmt("UPDATE recurrings SET status = 'ended', modified_ts = ? WHERE location_id = ? AND status != 'ended' AND end_date != ? AND end_date < ?")
        .run(this.ctx.clock.now(), loc, NO_DATE, today);
    }
  }

  sendNotices(locationId?: string, at?: DueMoment): void {
    for (const loc of this.locations(locationId)) {
      const today = this.today(loc, at);
      const rows = this.ctx
        .stmt(`SELECT r.* FROM recurrings r WHERE r.location_id = ? AND r.status = 'active' AND r.active = 1 AND r.notification_days > 0
            AND r.next_run_date >= ? AND r.next_run_date <= ?
            AND NOT EXISTS (SELECT 1 FROM recurring_notices n WHERE n.recurring_id = r.id AND n.run_date = r.next_run_date)`)
        .all(loc, today, addDays(today, 99)) as Row[];
      for (const r of rows) {
        const runDate = String(r.next_run_date);
        if (addDays(runDate, -Number(r.notification_days)) > today) continue;
        this.ctx.db.transaction(() => {
          const claimed = this.ctx.stmt('INSERT OR IGNORE INTO recurring_notices (recurring_id, run_date, created_ts) VALUES (?, ?, ?)').run(r.id, runDate, this.ctx.clock.now());
          if (claimed.changes === 0) return;
          const ids = this.notifyContact(r, runDate);
          if (ids[0]) this.ctx.stmt('UPDATE recurring_notices SET notification_id = ? WHERE recurring_id = ? AND run_date = ?').run(ids[0], r.id, runDate);
        })();
      }
    }
  }

  private notifyContact(r: Row, runDate: string): string[] {
    const contact = r.contact_id
      ? (this.ctx.stmt('SELECT first_name, last_name, email, cell_phone FROM contacts WHERE id = ?').get(r.contact_id) as Row | undefined)
      : undefined;
    if (!contact) return [];
    const vault = this.ctx.stmt('SELECT last_four, payment_method FROM account_vaults WHERE id = ?').get(r.account_vault_id) as { last_four: string | null; payment_method: string } | undefined;
    const place = (this.ctx.stmt('SELECT name FROM locations WHERE id = ?').get(r.location_id) as { name: string | null } | undefined)?.name ?? 'The merchant';
    const what = vault?.payment_method === 'ach' ? 'bank account' : 'card';
    const ending = vault?.last_four ? ` ending in ${vault.last_four}` : '';
    const name = [contact.first_name, contact.last_name].filter(Boolean).join(' ');
    const subject = `Upcoming payment of $${String(r.transaction_amount)} on ${runDate}`;
    const body = `${name ? `Dear ${name},\n\n` : ''}${place} will charge $${String(r.transaction_amount)} to your ${what}${ending} on ${runDate}${r.description ? ` for ${String(r.description)}` : ''}.\n`;
    const base = { locationId: String(r.location_id), subject, body, kind: 'recurring_notice', resourceType: 'recurring', resourceId: String(r.id) };
    const ids: string[] = [];
    if (typeof contact.email === 'string' && contact.email) ids.push(this.ctx.notify({ ...base, channel: 'email', to: contact.email }));
    if (typeof contact.cell_phone === 'string' && contact.cell_phone) ids.push(this.ctx.notify({ ...base, channel: 'sms', to: contact.cell_phone }));
    return ids;
  }

  async runDue(locationId?: string, at?: DueMoment): Promise<void> {
    const queue: { id: string; today: string }[] = [];
    for (const loc of this.locations(locationId)) {
      const today = this.today(loc, at);
      const ids = this.ctx
        .stmt("SELECT id FROM recurrings WHERE status = 'active' AND location_id = ? AND next_run_date <= ? AND active = 1")
        .all(loc, today) as { id: string }[];
      for (const r of ids) queue.push({ id: r.id, today });
    }
    let next = 0;
    const worker = async () => {
      while (next < queue.length) {
        const job = queue[next++] as { id: string; today: string };
        if (this.busy.has(job.id)) continue;
        this.busy.add(job.id);
        try {
          await this.catchUp(job.id, job.today);
        } finally {
          this.busy.delete(job.id);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_RUNS, queue.length) }, worker));
  }

  /** Charges every run of one recurring dated up to `today`, oldest first. */
  private async catchUp(id: string, today: string): Promise<void> {
    let previous: string | undefined;
    for (;;) {
      const r = this.ctx.stmt('SELECT * FROM recurrings WHERE id = ?').get(id) as Row | undefined;
      if (!r || r.status !== 'active' || Number(r.active) !== 1 || String(r.next_run_date) > today) return;
      // No progress (the date was already claimed): leave it to the next pass rather than spin.
      if (r.next_run_date === previous) return;
      previous = String(r.next_run_date);
      await this.runOnce(r);
    }
  }

  private authFor(r: Row): AuthInfo {
    const user = (this.ctx.stmt('SELECT * FROM users WHERE id = ?').get(r.created_user_id) as Row | undefined) ?? { id: r.created_user_id, user_type_id: 100 };
    const loc = String(r.location_id);
    return { userId: String(r.created_user_id), developerId: '', user, locationIds: [loc], locationSet: new Set([loc]), directLocationIds: [loc], locationsJson: JSON.stringify([loc]) };
  }

  /** One run: the transaction, the claim and the step forward, in one commit. */
  private async runOnce(r: Row): Promise<void> {
    const runDate = String(r.next_run_date);
    const id = String(r.id);
    const claim = (ctx: EngineContext, transactionId: string | null, statusId: number | null, error: string | null) => {
      const cur = ctx.stmt('SELECT * FROM recurrings WHERE id = ?').get(id) as Row | undefined;
      // Deleted, held, skipped or already run meanwhile: write nothing.
      if (!cur || cur.status !== 'active' || Number(cur.active) !== 1 || cur.next_run_date !== runDate) throw new RunAlreadyDone();
      const now = ctx.clock.now();
      const ins = ctx.stmt('INSERT OR IGNORE INTO recurring_runs (recurring_id, run_date, transaction_id, status_id, error, created_ts) VALUES (?, ?, ?, ?, ?, ?)').run(id, runDate, transactionId, statusId, error, now);
      if (ins.changes === 0) throw new RunAlreadyDone();
      const s = scheduleOf(cur);
      s.next_index += 1;
      const d = derivedFields(s, 'active');
      ctx
        .stmt('UPDATE recurrings SET next_index = ?, runs_done = runs_done + 1, next_run_date = ?, status = ?, modified_ts = ? WHERE id = ?')
        .run(s.next_index, d.next_run_date, d.status, now, id);
    };
    const body = {
      action: r.payment_method === 'ach' ? 'debit' : 'sale',
      location_id: r.location_id,
      product_transaction_id: r.product_transaction_id,
      account_vault_id: r.account_vault_id,
      transaction_amount: r.transaction_amount,
      ...(r.description ? { description: r.description } : {}),
    };
    const rt = this.payments();
    try {
      await rt.transactions.createFrom(this.authFor(r), body, undefined, {
        doc: { recurring_id: id, is_recurring: true, trx_source_id: 13 },
        withinCommit: (ctx, txn) => claim(ctx, txn.id, txn.statusId, null),
      });
    } catch (err) {
      if (err instanceof RunAlreadyDone) return;
      if (!(err instanceof ApiError)) throw err;
      // Refused by the transaction path: record the run with the reason and move on.
      const reason = Object.values(err.errors).flat().join(' ');
      try {
        // The engine's own connection (synchronous=FULL): durable when the transaction returns.
        this.ctx.db.transaction(() => claim(this.ctx, null, NO_TRANSACTION_STATUS, reason || 'refused'))();
      } catch (e) {
        if (!(e instanceof RunAlreadyDone)) throw e;
      }
    }
  }
}
