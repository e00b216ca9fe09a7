/** The `core:*` and `gateway:*` channels: what this instance is and whether its gateway answers. */
import { z } from 'zod';
import type { GatewayAuthMethod } from './gateway';
import type { ChannelDeclarations } from './channel-declaration';

/**
 * `refused`: the gateway answers but does not accept this app's credentials (401/403) — not the same as down.
 * `restarting`: the embedded engine's process died and its supervisor is bringing it back.
 */
export const gatewayHealthSchema = z.enum(['ok', 'unreachable', 'refused', 'starting', 'restarting']);
export type GatewayHealth = z.infer<typeof gatewayHealthSchema>;

export interface CoreStatus {
  appName: string;
  version: string;
  /** Where this instance keeps its data (SQLite files, keys, settings). */
  dataDir: string;
  /** `electron` when running inside the desktop shell, `node-host` when served to a browser. */
  shell: 'electron' | 'node-host';
  gateway: {
    mode: 'embedded' | 'remote';
    /** Base URL ending in /v2. */
    baseUrl: string;
    health: GatewayHealth;
    /** Milliseconds the last health probe took, when it answered. */
    latencyMs: number | null;
    checkedAt: number;
    /** How this run signs in to the gateway (a refusal is worded by it). */
    auth: GatewayAuthMethod;
    /** A manager signed this run out of the gateway: it refuses until Ringup starts again. */
    signedOut: boolean;
  };
  /** Set when this data folder is a copy of another register's: the sentence saying so and how to move a register (electron/core/queue/register-binding.ts). */
  registerCopy?: string;
}

export const coreHandlers = {
  'core:status': { args: z.void(), access: 'before-sign-in', effect: 'read', audit: 'none', copiedFolder: 'answers' },
  'gateway:check': { args: z.void(), access: 'before-sign-in', effect: 'read', audit: 'none', copiedFolder: 'answers' },
} as const satisfies ChannelDeclarations;

export interface CoreResults {
  'core:status': CoreStatus;
  'gateway:check': CoreStatus['gateway'];
}

export interface CoreEventPayloads {
  'core:status': CoreStatus;
}
export const coreEventNames = ['core:status'] as const;
