/**
 * The `vault:*` channels: customers (contacts) with their saved cards and bank accounts,
 * adding one (a keyed card, or a bank account whose routing number is checked as it is
 * typed), updating a card's expiry, deleting (the gateway may refuse, e.g. while a
 * recurring payment uses it) and charging a saved method from the sale screen.
 * Full numbers go renderer → core once, when a method is added; only masked numbers come back.
 * The schemas below are the ones the forms use to check fields as they are typed.
 */
import { z } from 'zod';
import { abaRoutingValid, achAccountValid } from '../payments/aba-routing';
import { luhnValid } from '../payments/luhn';
import { centsSchema, idSchema } from './common';
import { guardConfirmationFields } from './sales';
import type { SaleOutcome } from './sales';
import { COUNTER, MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

export const VAULT_FIELD_ERRORS = {
  cardNumber: 'A card number is 13 to 19 digits.',
  luhn: 'This card number is not valid. Check the digits.',
  expiry: 'The expiry date is MM/YY.',
  routing: 'A routing number is 9 digits.',
  routingCheck: 'This is not a valid routing number. Check the 9 digits on the cheque.',
  account: 'An account number is 4 to 17 digits.',
  holder: 'Type the name on the account.',
  lastName: 'Type the customer’s last name.',
  email: 'This e-mail address does not look right.',
} as const;

export const expirySchema = z.string().regex(/^(0[1-9]|1[0-2])\d{2}$/, VAULT_FIELD_ERRORS.expiry);
export const cardNumberSchema = z
  .string()
  .regex(/^\d{13,19}$/, VAULT_FIELD_ERRORS.cardNumber)
  .refine(luhnValid, VAULT_FIELD_ERRORS.luhn);
export const routingSchema = z
  .string()
  .regex(/^\d{9}$/, VAULT_FIELD_ERRORS.routing)
  .refine(abaRoutingValid, VAULT_FIELD_ERRORS.routingCheck);
export const bankAccountSchema = z.string().refine(achAccountValid, VAULT_FIELD_ERRORS.account);
const holderSchema = z.string().trim().min(1, VAULT_FIELD_ERRORS.holder).max(32);

export const addContactArgsSchema = z.strictObject({
  firstName: z.string().trim().max(64),
  lastName: z.string().trim().min(1, VAULT_FIELD_ERRORS.lastName).max(64),
  email: z.union([z.literal(''), z.string().trim().email(VAULT_FIELD_ERRORS.email).max(64)]),
});
export const addCardArgsSchema = z.strictObject({
  contactId: idSchema,
  holderName: z.string().trim().max(32),
  number: cardNumberSchema,
  expiry: expirySchema,
});
export const addBankArgsSchema = z.strictObject({
  contactId: idSchema,
  holderName: holderSchema,
  routing: routingSchema,
  account: bankAccountSchema,
  accountType: z.enum(['checking', 'savings']),
  isCompany: z.boolean(),
});
export const updateExpiryArgsSchema = z.strictObject({ id: idSchema, expiry: expirySchema });
export const vaultIdArgsSchema = z.strictObject({ id: idSchema });
export const vaultChargeArgsSchema = z.strictObject({
  id: idSchema,
  subtotalCents: centsSchema.min(1),
  taxCents: centsSchema,
  tipCents: centsSchema,
  clientRef: idSchema,
  ...guardConfirmationFields,
});
/** Save the card the customer presents on the counter's terminal (no number is typed or seen). */
export const addOnTerminalArgsSchema = z.strictObject({ contactId: idSchema });
export const contactSearchArgsSchema = z.strictObject({ text: z.string().max(64) });

/** A saved card or bank account as screens see it: masked, never a full number. */
export interface SavedMethod {
  id: string;
  kind: 'card' | 'bank';
  /** "Visa •••• 1111" or "Checking •••• 6789". */
  label: string;
  lastFour: string;
  /** MM/YY for cards. */
  expiry: string | null;
  expiringInMonths: number | null;
  holderName: string | null;
  contactId: string | null;
}

export interface ContactView {
  id: string;
  name: string;
  email: string | null;
  methods: SavedMethod[];
}

export const vaultHandlers = {
  'vault:contacts': { args: contactSearchArgsSchema, access: COUNTER, effect: 'read', audit: 'none' },
  'vault:add-contact': { args: addContactArgsSchema, access: MANAGER, effect: 'vault', audit: audits(['saved-card'], ['detail']) },
  'vault:add-card': { args: addCardArgsSchema, access: MANAGER, effect: 'vault', audit: audits(['saved-card'], ['detail']) },
  'vault:add-on-terminal': { args: addOnTerminalArgsSchema, access: MANAGER, effect: 'vault', audit: audits(['saved-card'], ['detail']) },
  'vault:add-bank': { args: addBankArgsSchema, access: MANAGER, effect: 'vault', audit: audits(['saved-card'], ['detail']) },
  'vault:update-expiry': { args: updateExpiryArgsSchema, access: MANAGER, effect: 'vault', audit: audits(['saved-card'], ['detail']) },
  'vault:delete': { args: vaultIdArgsSchema, access: MANAGER, effect: 'vault', audit: audits(['saved-card'], ['detail']) },
  'vault:charge': { args: vaultChargeArgsSchema, access: COUNTER, effect: 'money', audit: audits(['sale'], ['amount', 'transaction', 'detail']) },
} as const satisfies ChannelDeclarations;

export interface VaultResults {
  'vault:contacts': ContactView[];
  'vault:add-contact': ContactView;
  'vault:add-card': SavedMethod;
  'vault:add-on-terminal': SavedMethod;
  'vault:add-bank': SavedMethod;
  'vault:update-expiry': SavedMethod;
  'vault:delete': null;
  'vault:charge': SaleOutcome;
}
