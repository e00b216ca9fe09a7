/**
 * Default Level 3 data given to every commercial/purchasing card transaction (the
 * interface says they "get default level 3 data automatically"): one line item for the
 * whole amount, valid for the card's network. A later POST /v2/transactionlevel3s
 * replaces it.
 */
import { formatMoney } from '../../../shared/payments/money';
import type { Level3Network } from '../../../shared/payments/level3-schema';

export function defaultLevel3Data(network: Level3Network, amountCents: number, taxCents: number | null): Record<string, unknown> {
  const item: Record<string, unknown> = {
    description: 'Goods and services',
    product_code: 'DEFAULT',
    unit_code: 'EA',
    unit_cost: Number(formatMoney(amountCents - (taxCents ?? 0))),
    quantity: 1,
  };
  if (network === 'visa') item.commodity_code = '00000';
  else item.debit_credit = 'D';
  return { tax_amount: Number(formatMoney(taxCents ?? 0)), tax_exempt: taxCents ? '0' : '1', line_items: [item] };
}
