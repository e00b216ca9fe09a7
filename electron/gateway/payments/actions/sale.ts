/** `sale`: authorize and capture a card payment; it joins the open batch. */
import { askIssuer, type PostActionStep } from './post-action';

export const saleAction: PostActionStep = { methods: ['cc'], issuesAuthCode: true, keepsAccount: true, process: askIssuer('sale') };
