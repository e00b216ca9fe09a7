/** Pay link and quick invoice tables (engine migration range 500–599). */
import { formatMoney, parseMoney } from '../../../shared/payments/money';
import type { Migration } from '../framework/migrations';

export const BILLING_LINKS_MIGRATIONS: Migration[] = [
  {
    version: 500,
    module: 'billing-links',
    name: 'paylinks and quick invoices',
    up(db) {
      db.exec(`
        CREATE TABLE paylinks (
          id TEXT PRIMARY KEY,
          location_id TEXT NOT NULL REFERENCES locations(id),
          cc_product_transaction_id TEXT,
          ach_product_transaction_id TEXT,
          amount_due TEXT,
          contact_id TEXT,
          email TEXT,
          cell_phone TEXT,
          delivery_method INTEGER NOT NULL,
          expire_date TEXT,
          paylink_action TEXT NOT NULL DEFAULT 'sale',
          paylink_api_id TEXT,
          description TEXT,
          display_product_transaction_receipt_details INTEGER NOT NULL DEFAULT 1,
          display_billing_fields INTEGER NOT NULL DEFAULT 1,
          active INTEGER NOT NULL DEFAULT 1,
          status_id INTEGER NOT NULL DEFAULT 0,
          paid_transaction_id TEXT,
          created_ts INTEGER NOT NULL,
          modified_ts INTEGER NOT NULL,
          created_user_id TEXT,
          modified_user_id TEXT
        );
        CREATE UNIQUE INDEX paylinks_api_id ON paylinks (location_id, paylink_api_id) WHERE paylink_api_id IS NOT NULL;
        CREATE INDEX paylinks_loc_created ON paylinks (location_id, created_ts);

        CREATE TABLE quick_invoices (
          id TEXT PRIMARY KEY,
          location_id TEXT NOT NULL REFERENCES locations(id),
          contact_id TEXT,
          invoice_number TEXT,
          title TEXT NOT NULL,
          item_header TEXT,
          item_list TEXT NOT NULL,
          item_footer TEXT,
          status_id INTEGER NOT NULL DEFAULT 1,
          payment_status_id INTEGER NOT NULL DEFAULT 1,
          amount_due TEXT NOT NULL,
          remaining_balance TEXT NOT NULL,
          due_date TEXT NOT NULL,
          expire_date TEXT,
          email TEXT,
          allow_partial_pay INTEGER NOT NULL DEFAULT 0,
          allow_overpayment INTEGER NOT NULL DEFAULT 0,
          notification_days_before_due_date INTEGER,
          notification_on_due_date INTEGER NOT NULL DEFAULT 1,
          notification_days_after_due_date INTEGER,
          cc_product_transaction_id TEXT,
          ach_product_transaction_id TEXT,
          is_active INTEGER NOT NULL DEFAULT 1,
          note TEXT,
          notification_email TEXT,
          attach_files_to_email INTEGER NOT NULL DEFAULT 0,
          cell_phone TEXT,
          send_text_to_pay INTEGER NOT NULL DEFAULT 0,
          tag_titles TEXT,
          created_ts INTEGER NOT NULL,
          modified_ts INTEGER NOT NULL,
          created_user_id TEXT,
          modified_user_id TEXT
        );
        CREATE INDEX quick_invoices_loc_created ON quick_invoices (location_id, created_ts);

        -- Which transactions pay which invoice: a transaction pays at most one invoice.
        CREATE TABLE quick_invoice_transactions (
          transaction_id TEXT PRIMARY KEY,
          quick_invoice_id TEXT NOT NULL REFERENCES quick_invoices(id) ON DELETE CASCADE,
          created_ts INTEGER NOT NULL
        );
        CREATE INDEX quick_invoice_transactions_invoice ON quick_invoice_transactions (quick_invoice_id);

        -- Uploaded files, kept in the engine's database (size-limited on upload).
        CREATE TABLE quick_invoice_files (
          id TEXT PRIMARY KEY,
          quick_invoice_id TEXT NOT NULL REFERENCES quick_invoices(id) ON DELETE CASCADE,
          file_name TEXT NOT NULL,
          content_type TEXT NOT NULL,
          size INTEGER NOT NULL,
          data BLOB NOT NULL,
          created_ts INTEGER NOT NULL
        );
        CREATE INDEX quick_invoice_files_invoice ON quick_invoice_files (quick_invoice_id);

        -- Reminders already queued (before / on / after a given due date): never twice.
        CREATE TABLE quick_invoice_reminders (
          quick_invoice_id TEXT NOT NULL REFERENCES quick_invoices(id) ON DELETE CASCADE,
          kind TEXT NOT NULL,
          due_date TEXT NOT NULL,
          sent_ts INTEGER NOT NULL,
          PRIMARY KEY (quick_invoice_id, kind, due_date)
        );

        -- Attachments of an outbox message: JSON [{"file_id", "file_name", "content_type"}]
        -- naming rows of quick_invoice_files (the SMTP transport attaches them).
        ALTER TABLE notification_outbox ADD COLUMN attachments TEXT;
      `);
    },
  },
  {
    version: 501,
    module: 'billing-links',
    name: "a pay link's payments and remaining balance (a partial approval leaves it partly paid)",
    up(db) {
      db.exec(`
        -- Which transactions pay which pay link: a link may take several (a partial approval, then the rest).
        CREATE TABLE paylink_payments (
          transaction_id TEXT PRIMARY KEY,
          paylink_id TEXT NOT NULL REFERENCES paylinks(id) ON DELETE CASCADE,
          created_ts INTEGER NOT NULL
        );
        CREATE INDEX paylink_payments_link ON paylink_payments (paylink_id);
        ALTER TABLE paylinks ADD COLUMN remaining_balance TEXT;
        INSERT INTO paylink_payments (transaction_id, paylink_id, created_ts)
          SELECT paid_transaction_id, id, modified_ts FROM paylinks WHERE paid_transaction_id IS NOT NULL;
      `);
      // Balances from what was collected; a link marked paid by a partial approval (before
      // this migration) is unpaid again, so its rest can be collected on its page.
      const links = db.prepare('SELECT id, amount_due FROM paylinks').all() as { id: string; amount_due: string | null }[];
      const collected = db.prepare(`SELECT COALESCE(SUM(t.auth_amount - t.refunded), 0) AS paid FROM paylink_payments p JOIN transactions t ON t.id = p.transaction_id
        WHERE p.paylink_id = ? AND t.status_id IN (101, 102, 131, 132, 133, 134) AND t.type_id IN (20, 50)`);
      const set = db.prepare('UPDATE paylinks SET remaining_balance = ?, status_id = CASE WHEN ? THEN 0 ELSE status_id END WHERE id = ?');
      for (const l of links) {
        const due = parseMoney(l.amount_due);
        if (due === null) continue;
        const remaining = Math.max(0, due - (collected.get(l.id) as { paid: number }).paid);
        set.run(formatMoney(remaining), remaining > 0 ? 1 : 0, l.id);
      }
    },
  },
];
