/**
 * A sale approved offline (issue 13) has no gateway transaction id until the offline queue
 * has sent it: the receipt, the sale screen and a cart tender carry this stand-in, made from
 * the sale's own transaction_api_id. The core swaps a cart tender's stand-in for the
 * gateway's id once the sale is sent.
 */
const OFFLINE_ID_PREFIX = 'offline-';

export const offlinePlaceholderId = (clientRef: string): string => `${OFFLINE_ID_PREFIX}${clientRef}`;

export const isOfflinePlaceholder = (id: string | null | undefined): id is string => typeof id === 'string' && id.startsWith(OFFLINE_ID_PREFIX);
