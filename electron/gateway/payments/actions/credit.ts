/** `credit`: an ACH credit to a bank account. */
import { askIssuer, type PostActionStep } from './post-action';

export const creditAction: PostActionStep = { methods: ['ach'], issuesAuthCode: true, keepsAccount: true, process: askIssuer('credit') };
