/**
 * Every sentence the OAuth, SSO and hosted pages say, declared once and asserted in
 * tests. JSON errors use the engine's envelope; HTML pages show the same sentences.
 */
export const OAUTH_MSG = {
  // /o/authrize (HTML pages)
  CLIENT_UNKNOWN: 'This application is not registered with the gateway.',
  REDIRECT_NOT_REGISTERED: 'The return address (redirect_uri) is not one registered for this application, so you were not sent there.',
  REQUEST_EXPIRED: 'This sign-in page has expired or was already used. Go back to the application and start again.',
  CSRF_MISMATCH: 'This form could not be verified. Go back to the application and start again.',
  LOGIN_WRONG: 'The login domain, username or password is wrong.',
  LOGIN_LOCKED: 'Too many wrong passwords for this user. Try again in {minutes} minutes.',
  LOGIN_MISSING: 'Enter the login domain, username and password.',
  DECISION_MISSING: 'Choose Allow or Deny.',
  // /o/token and /o/revoke (JSON envelope)
  CLIENT_AUTH_FAILED: 'The client id or client secret is wrong.',
  GRANT_TYPE_UNSUPPORTED: 'Grant Type must be "authorization_code" or "refresh_token".',
  CODE_INVALID: 'The authorization code is invalid, expired or already used.',
  REDIRECT_MISMATCH: 'Redirect Uri does not match the one of the authorization request.',
  VERIFIER_INVALID: 'Code Verifier does not match the code challenge.',
  REFRESH_INVALID: 'The refresh token is invalid or revoked.',
  // client registration
  REDIRECTS_REQUIRED: 'Redirect Uris must list at least one URL.',
  REDIRECT_INVALID: 'Redirect Uris must be absolute http or https URLs without a fragment.',
  HOMEPAGE_INVALID: 'Homepage Url must be an absolute http or https URL.',
  // SSO
  SSO_DEVELOPER: 'The developer-id of this link is not this gateway’s.',
  SSO_NO_DATA: 'This link carries no data (data or e_data).',
  SSO_BAD_HEX: 'This link is damaged: its data is not hexadecimal text.',
  SSO_BAD_CIPHER: 'This link is damaged or was encrypted with another key.',
  SSO_BAD_JSON: 'This link is damaged: its data is not a JSON object.',
  SSO_EXPIRED: 'This link has expired (links work for 15 minutes after they are made). Ask for a new one.',
  SSO_FUTURE: 'This link’s timestamp is in the future. Check the clock of the system that made it.',
  SSO_REPLAYED: 'This link was already used. Ask for a new one.',
  SSO_USER: 'The user or user api key in this link is wrong, or the user is not active.',
  SSO_LOCATION: 'The user in this link cannot use that location.',
  SSO_FIELD: 'This link is missing or has a wrong value for: {fields}.',
  SSO_CONTACT: 'The contact in this link could not be saved: {reasons}',
  SSO_NO_KEY: 'Encrypted links (e_data) need a developer encryption key, and none is set.',
  // hosted pages
  HOSTED_SESSION: 'You are not signed in, or your session has ended. Open the link from your application again.',
  HOSTED_NOT_FOUND: 'There is no such page. Open the link from your application again.',
  HOSTED_AMOUNT: 'Enter the amount as dollars and cents, for example 10.00.',
  HOSTED_DECLINED: 'The card was declined: {reason}',
  HOSTED_APPROVED: 'Approved',
  HOSTED_REJECTED: 'The charge was not made: {reasons}',
} as const;
