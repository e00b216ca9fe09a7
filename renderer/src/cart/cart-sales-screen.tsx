/**
 * Cart sales: the sales rung up as a cart, newest first, cash-only ones included (they have
 * no gateway transaction, so the Transactions list cannot show them). Opening one shows its
 * receipt (both copies print) and, for managers, returning chosen lines. Cashiers reach it
 * from the Transactions screen; managers also from the Manage hub.
 *
 * A due sale (paid, then a card payment of it voided: issue 20, point 4) says what is due,
 * and "Collect the rest" makes it this user's cart to tender on the Sale screen (the core
 * refuses, in a sentence shown here, while their own cart holds a sale or someone else is
 * collecting it).
 * Component state only: leaving the screen drops the selection.
 */
import { useCartPrint } from '../receipts/use-cart-print';
import { PrintNoteLine } from '../receipts/print-note';
import { useCallback, useEffect, useState } from 'react';
import type { CartReceiptData, CartSalesPage } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { CartReturnLines } from './cart-line-return';
import { CartReceiptSet } from './cart-receipt';
import { NewerOlderPager } from '../transactions/newer-older-pager';
import { ErrorNote } from '../sales/outcome-note';
import { receiptHeaderOf } from '../receipts/receipt';
import { money } from '../ui/money-format';
import { dateAndTime } from '../ui/time-format';
import { useCartStore } from './cart-store';
import { useNavStore } from '../shell/nav-store';
import { useSaleStore } from '../sales/sale-store';
import { useSessionStore } from '../auth/session-store';

export function CartSalesScreen() {
  const isManager = useSessionStore((s) => s.session?.user.role === 'manager');
  const config = useSaleStore((s) => s.config);
  const loadConfig = useSaleStore((s) => s.loadConfig);
  const [list, setList] = useState<CartSalesPage | null>(null);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<CartReceiptData | null>(null);
  const cartPrint = useCartPrint(open?.cart.id ?? null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (pageNo: number) => {
    const r = await ringup.cartSales({ page: pageNo });
    if (r.ok) setList(r.value);
    else setError(r.error.message);
  }, []);
  useEffect(() => {
    void load(page);
  }, [load, page]);
  useEffect(() => {
    if (!config) void loadConfig();
  }, [config, loadConfig]);

  const [collecting, setCollecting] = useState<string | null>(null);
  const me = useSessionStore((s) => s.session?.user.name ?? null);
  const collect = async (cartId: string) => {
    setError(null);
    setCollecting(cartId);
    const refused = await useCartStore.getState().collect(cartId);
    setCollecting(null);
    if (refused) return setError(refused);
    // On the Sale screen the due cart is the cart, its balance what is due.
    useNavStore.setState({ screen: 'sale' });
  };

  const openCart = async (cartId: string) => {
    setError(null);
    const r = await ringup.cartReceipt({ cartId });
    if (r.ok) setOpen(r.value);
    else setError(r.error.message);
  };

  return (
    <div className={open ? 'cart-sales-layout' : 'cart-sales-layout cart-sales-layout-wide'}>
      <section className="panel" aria-labelledby="cart-sales-title">
        <h1 id="cart-sales-title" className="section-title" tabIndex={-1} data-screen-focus>
          Cart sales
        </h1>
        <p className="muted">
          Sales rung up as a cart, cash ones too, newest first. Open one to print its receipt{isManager ? ' or return items' : ''}. A sale with money due (a card payment of it was voided) is collected from here.
        </p>
        <ErrorNote text={error} />
        {list && list.rows.length === 0 ? (
          <p className="empty-list">No cart sales yet.</p>
        ) : (
          <table className="breakdown" data-testid="cart-sales">
            <thead>
              <tr>
                <th scope="col">Paid</th>
                <th scope="col">Cashier</th>
                <th scope="col">Paid by</th>
                <th scope="col">Items</th>
                <th scope="col">Total</th>
                <th scope="col">
                  <span className="sr-only">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list?.rows.map((r) => (
                <tr key={r.id} data-testid="cart-sale-row" aria-current={open?.cart.id === r.id ? 'true' : undefined}>
                  <td className="cart-sales-when">{dateAndTime(Math.floor(r.paidTs / 1000))}</td>
                  <td>{r.cashier ?? '—'}</td>
                  <td>{r.paidBy}</td>
                  <td>
                    {r.lineCount}
                    {r.returnedLines > 0 ? ` (${r.returnedLines} returned)` : ''}
                  </td>
                  <td>
                    {money(r.totalCents)}
                    {r.status === 'due' && (
                      <>
                        <br />
                        <span className="badge badge-state-pending" data-testid="cart-sale-due">
                          {money(r.dueCents)} due
                        </span>
                      </>
                    )}
                  </td>
                  <td>
                    <div className="cart-sales-actions">
                      {r.status === 'due' &&
                        // A manager may take it over from a collector who left it (the core refuses while a payment of it runs).
                        (r.collector && r.collector !== me && !isManager ? (
                          <span className="muted">{r.collector} is collecting it</span>
                        ) : (
                          <button
                            type="button"
                            className="btn btn-primary"
                            disabled={collecting !== null}
                            onClick={() => void collect(r.id)}
                            aria-label={`Collect the rest: ${money(r.dueCents)} due on the ${money(r.totalCents)} sale of ${dateAndTime(Math.floor(r.paidTs / 1000))}`}
                          >
                            {collecting === r.id ? 'Collecting…' : 'Collect the rest'}
                          </button>
                        ))}
                      <button type="button" className="btn btn-secondary" onClick={() => void openCart(r.id)} aria-label={`Open the ${money(r.totalCents)} sale of ${dateAndTime(Math.floor(r.paidTs / 1000))}`}>
                        Open
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {list && list.pageCount > 1 && <NewerOlderPager page={list} onPage={setPage} />}
      </section>
      {open && (
        <aside className="cart-sales-side" aria-labelledby="cart-sale-title">
          <h2 id="cart-sale-title" className="section-title">
            Sale of {money(open.cart.totals.totalCents)}
          </h2>
          <div className="form-actions">
            <button type="button" className="btn btn-primary btn-lg" onClick={cartPrint.print}>
              Print receipt
            </button>
          </div>
          <PrintNoteLine note={cartPrint.note} />
          <CartReceiptSet data={open} header={receiptHeaderOf(config)} />
          <div className="panel">
            <CartReturnLines
              key={open.cart.id}
              initial={open.cart}
              isManager={isManager}
              onChanged={(cart) => {
                setOpen({ ...open, cart });
                void load(page);
              }}
            />
          </div>
        </aside>
      )}
    </div>
  );
}
