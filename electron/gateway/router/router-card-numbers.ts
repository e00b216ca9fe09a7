/**
 * What a card number typed into a router request does (framework/card-mask.ts), declared once
 * for the routes and the OpenAPI document: a router transaction's fields follow the transaction
 * field table (it becomes a transaction), the terminal and the records named are identifiers.
 */
import { keepsDigits } from '../framework/card-mask';
import { transactionKeepsDigits } from '../payments/transaction-fields';

export const ROUTER_TRANSACTION_DIGITS = transactionKeepsDigits('routertransaction', { terminal_id: 'identifier' });
export const ROUTER_VAULT_DIGITS = keepsDigits('routeraccountvault', { location_id: 'identifier', contact_id: 'identifier', terminal_id: 'identifier' });
export const TERMINAL_CANCEL_DIGITS = keepsDigits('terminalcancel', { transaction_api_id: 'identifier' });
