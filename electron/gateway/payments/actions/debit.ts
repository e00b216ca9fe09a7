/** `debit`: an ACH payment (pending origination, then originated and settled on the engine clock). */
import { askIssuer, type PostActionStep } from './post-action';

export const debitAction: PostActionStep = { methods: ['ach'], issuesAuthCode: true, keepsAccount: true, process: askIssuer('debit') };
