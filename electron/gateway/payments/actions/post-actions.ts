/** Each POST action's step (one file per action), by its name in the field table's POST_ACTIONS. */
import type { PostAction } from '../transaction-fields';
import { authonlyAction } from './authonly';
import { avsonlyAction } from './avsonly';
import { creditAction } from './credit';
import { debitAction } from './debit';
import { forceAction } from './force';
import type { PostActionStep } from './post-action';
import { refundAction } from './refund';
import { saleAction } from './sale';

export const POST_ACTION_STEPS: Readonly<Record<PostAction, PostActionStep>> = {
  sale: saleAction,
  authonly: authonlyAction,
  avsonly: avsonlyAction,
  force: forceAction,
  refund: refundAction,
  debit: debitAction,
  credit: creditAction,
};
