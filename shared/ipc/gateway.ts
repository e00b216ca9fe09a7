/**
 * The `gateway:*` connection channels (managers): which gateway the counter uses, test a
 * gateway's credentials, and change it (applies at the next start). No secret is ever
 * answered; the API key goes one way, from the form to the core.
 */
import { z } from 'zod';
import { idSchema } from './common';

const urlSchema = z
  .string()
  .trim()
  .max(300)
  .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'Enter the gateway’s base URL, like https://api.sandbox.example.com/v2.');
const keySchema = z.string().trim().min(16, 'An API key has at least 16 characters.').max(64).regex(/^\S+$/, 'An API key has no spaces.');

export const remoteConnectionSchema = z.strictObject({ baseUrl: urlSchema, developerId: idSchema, userId: idSchema, userApiKey: keySchema });

export interface GatewayConnectionView {
  /** What this run uses. */
  mode: 'embedded' | 'remote';
  baseUrl: string;
  /** Set from RINGUP_GATEWAY_URL …: the saved choice does not apply while they are set. */
  fromEnvironment: boolean;
  developerId: string | null;
  userId: string | null;
  authMethod: 'api-key';
  /** What a manager saved, applied at the next start (null: never changed, the embedded engine). */
  saved: { kind: 'embedded' | 'remote'; baseUrl: string | null; developerId: string | null; userId: string | null } | null;
  /** The saved choice differs from what runs now. */
  restartNeeded: boolean;
}

export const gatewayHandlers = {
  'gateway:connection': z.void(),
  'gateway:test': remoteConnectionSchema,
  'gateway:save': z.union([z.strictObject({ kind: z.literal('embedded') }), remoteConnectionSchema.extend({ kind: z.literal('remote') })]),
} as const;

export interface GatewayResults {
  'gateway:connection': GatewayConnectionView;
  'gateway:test': { ok: boolean; message: string; latencyMs: number | null };
  'gateway:save': GatewayConnectionView;
}
