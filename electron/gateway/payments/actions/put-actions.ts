/** Each PUT action's step (one file per action), by its name in the field table's PUT_ACTIONS. */
import type { PutAction } from '../transaction-fields';
import { authcompleteAction } from './authcomplete';
import { authincrementAction } from './authincrement';
import { editAction } from './edit';
import { partialreversalAction } from './partialreversal';
import type { PutActionStep } from './put-action';
import { voidAction } from './void';

export const PUT_ACTION_STEPS: Readonly<Record<PutAction, PutActionStep>> = {
  void: voidAction,
  authcomplete: authcompleteAction,
  authincrement: authincrementAction,
  partialreversal: partialreversalAction,
  edit: editAction,
};
