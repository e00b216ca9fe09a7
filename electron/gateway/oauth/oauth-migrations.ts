/**
 * Tables of the OAuth/SSO module (migrations 700–799; merchant has 1–99, payments
 * 100–199, and the hundreds between are left to the modules other issues add).
 *
 * Secrets are never stored: client secrets, authorization codes, access and refresh
 * tokens, CSRF tokens, browser bindings and hosted-session ids are kept as SHA-256 hex.
 * The developer encryption key is the exception (it must be usable to decrypt SSO
 * links); it lives in engine_meta beside the seed credentials, in the 0600 database.
 */
import type { Migration } from '../framework/migrations';

export const OAUTH_MIGRATIONS: Migration[] = [
  {
    version: 700,
    module: 'oauth',
    name: 'oauth clients, requests, codes, tokens; sso links; hosted sessions',
    up(db) {
      db.exec(`
        CREATE TABLE oauth_clients (
          id TEXT PRIMARY KEY, developer_company_id TEXT NOT NULL, secret_hash TEXT NOT NULL,
          name TEXT NOT NULL, description TEXT, homepage_url TEXT, redirect_uris TEXT NOT NULL,
          created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
        CREATE TABLE oauth_requests (
          id TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, state TEXT,
          code_challenge TEXT, csrf_hash TEXT NOT NULL, browser_hash TEXT NOT NULL,
          user_id TEXT, stage TEXT NOT NULL, expires_ts INTEGER NOT NULL);
        CREATE INDEX oauth_requests_expiry ON oauth_requests (expires_ts);
        CREATE TABLE oauth_codes (
          code_hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, redirect_uri TEXT NOT NULL,
          code_challenge TEXT, expires_ts INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0, token_id TEXT);
        CREATE TABLE oauth_tokens (
          id TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, developer_company_id TEXT NOT NULL,
          access_hash TEXT NOT NULL UNIQUE, access_expires_ts INTEGER NOT NULL, refresh_hash TEXT NOT NULL UNIQUE,
          revoked INTEGER NOT NULL DEFAULT 0, created_ts INTEGER NOT NULL, modified_ts INTEGER NOT NULL);
        CREATE TABLE oauth_login_failures (
          login_key TEXT PRIMARY KEY, failures INTEGER NOT NULL, window_start_ts INTEGER NOT NULL);
        CREATE TABLE sso_links_used (digest TEXT PRIMARY KEY, expires_ts INTEGER NOT NULL);
        CREATE TABLE hosted_sessions (
          id_hash TEXT PRIMARY KEY, csrf_hash TEXT NOT NULL, user_id TEXT NOT NULL, location_id TEXT NOT NULL,
          contact_id TEXT, route_name TEXT NOT NULL, prefill TEXT NOT NULL, expires_ts INTEGER NOT NULL);`);
    },
  },
];
