/** `authonly`: authorize a card payment, captured later by authcomplete. */
import { askIssuer, type PostActionStep } from './post-action';

export const authonlyAction: PostActionStep = { methods: ['cc'], issuesAuthCode: true, keepsAccount: true, process: askIssuer('authonly') };
