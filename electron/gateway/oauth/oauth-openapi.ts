/**
 * The OAuth module in the OpenAPI document: the authorization-code flow (/o/authrize, the
 * seed's spelling, /o/token, /o/revoke), client registration (/v2/oauthclients), single
 * sign-on links (/custom/sso, /custom/contactsso) and the hosted pages they land on.
 *
 * The browser-facing routes answer HTML pages (login, consent, error pages) and take HTML
 * form posts, so their responses are described as `text/html` and their bodies as
 * `application/x-www-form-urlencoded`; they carry no /v2 credentials (`security: []`).
 * /o/token and /o/revoke answer the engine's JSON error envelope.
 */
import { BODY_ERRORS, COMMON_ERRORS, errorResponses, idPathParameter, jsonContent, pageRefusal, ref, wholeFirstAlternative, withExample, wrapper, type JsonSchema, type OpenApiOperation, type OpenApiPart } from '../framework/openapi-document';
import { responseOf } from '../framework/resource-openapi';
import { AUTHORIZE_PATH, STATE_MAX } from './authorize-routes';
import { HOSTED_ROUTES } from './sso-routes';

const open = { security: [] as Record<string, string[]>[] };
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const form = (schema: JsonSchema) => ({ required: true, content: { 'application/x-www-form-urlencoded': { schema } } });
const redirect = (description: string) => ({ description, headers: { Location: { description: 'Where the browser goes next.', schema: { type: 'string', format: 'uri' } } } });
const query = (name: string, description: string, schema: JsonSchema = { type: 'string' }, required = false) => ({ name, in: 'query' as const, required, description, schema });

const uri: JsonSchema = { type: 'string', format: 'uri', maxLength: 2000 };

const CLIENT: JsonSchema = {
  type: 'object',
  required: ['client_id', 'name', 'redirect_uris', 'created_ts', 'modified_ts'],
  properties: {
    client_id: { type: 'string' },
    name: { type: 'string', maxLength: 64 },
    description: { type: ['string', 'null'], maxLength: 255 },
    homepage_url: { type: ['string', 'null'], maxLength: 255 },
    redirect_uris: { type: 'array', items: uri },
    created_ts: { type: 'integer' },
    modified_ts: { type: 'integer' },
    client_secret: { type: 'string', description: 'Only in the answer to POST: it is stored hashed and never shown again.' },
  },
  additionalProperties: true,
};

const CLIENT_CREATE: JsonSchema = wholeFirstAlternative({
  type: 'object',
  required: ['name'],
  anyOf: [{ required: ['redirect_uris'] }, { required: ['redirect_uri'] }],
  properties: {
    name: withExample({ type: 'string', minLength: 1, maxLength: 64 }, 'Contract client'),
    description: withExample({ type: ['string', 'null'], maxLength: 255, description: 'null or "" for none.' }, 'Till software'),
    homepage_url: wholeFirstAlternative(withExample({ type: ['string', 'null'], maxLength: 255, anyOf: [{ format: 'uri' }, { const: '' }], description: 'An http(s) URL; null or "" for none.' }, 'https://example.com')),
    redirect_uris: withExample({ type: 'array', minItems: 1, maxItems: 20, items: uri }, ['http://127.0.0.1:8765/oauth/callback']),
    redirect_uri: { ...uri, type: ['string', 'null'], description: 'One redirect URL, in place of redirect_uris (null: not sent).' },
  },
  description: 'Unknown keys are ignored.',
  additionalProperties: true,
});

const TOKEN_REQUEST: JsonSchema = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
    code: { type: 'string', description: 'authorization_code: the single-use code from the redirect (valid for minutes).' },
    redirect_uri: { ...uri, description: 'authorization_code: the redirect_uri the code was issued for.' },
    code_verifier: { type: 'string', description: 'authorization_code with PKCE: the verifier of the S256 code_challenge.' },
    refresh_token: { type: 'string', description: 'refresh_token: the refresh token of the pair.' },
    client_id: { type: 'string', description: 'Or HTTP Basic authorization.' },
    client_secret: { type: 'string', description: 'Or HTTP Basic authorization.' },
    state: { type: 'string', description: 'Echoed in the answer.' },
  },
};

const TOKEN: JsonSchema = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'refresh_token', 'state', 'user_id'],
  properties: {
    access_token: { type: 'string', description: 'Sent as `Authorization: Bearer` with `developer-id` on /v2.' },
    token_type: { const: 'bearer' },
    expires_in: { type: 'integer', description: 'Seconds until the access token expires.' },
    refresh_token: { type: 'string', description: 'Valid until revoked.' },
    state: { type: ['string', 'null'] },
    user_id: { type: 'string' },
  },
};

const REVOKE_REQUEST: JsonSchema = {
  type: 'object',
  required: ['token'],
  properties: {
    token: { type: 'string', description: 'The access or the refresh token; both of the pair stop working.' },
    client_id: { type: 'string', description: 'Or HTTP Basic authorization.' },
    client_secret: { type: 'string', description: 'Or HTTP Basic authorization.' },
  },
};

const AUTHORIZE_POST: JsonSchema = {
  type: 'object',
  required: ['request_id', 'csrf_token'],
  properties: {
    request_id: { type: 'string', description: 'From the page (hidden field).' },
    csrf_token: { type: 'string', description: 'From the page (hidden field); the browser also sends the request cookie.' },
    domain: { type: 'string', maxLength: 255, description: 'Login page: the login domain.' },
    username: { type: 'string', maxLength: 255, description: 'Login page.' },
    password: { type: 'string', maxLength: 256, description: 'Login page.' },
    decision: { type: 'string', enum: ['allow', 'deny'], description: 'Consent page.' },
  },
};

const SSO_PARAMS: JsonSchema = {
  type: 'object',
  properties: {
    'developer-id': { type: 'string', description: 'Or the developer-id header.' },
    data: { type: 'string', pattern: '^[0-9a-fA-F]*$', description: 'Hex of the link JSON (user_id, user_api_key, location_id, timestamp, and the contact or virtual-terminal fields).' },
    e_data: { type: 'string', pattern: '^[0-9a-fA-F]*$', description: "Hex of a 16-byte IV followed by AES-256-CBC (PKCS7) ciphertext of the JSON under the developer's encryption key." },
  },
};

const ssoOperation = (method: 'get' | 'post', path: string, id: string, what: string): OpenApiOperation => ({
  ...open,
  tags: ['sso'],
  operationId: id,
  summary: `Single sign-on link: ${what}`,
  description:
    'A link expires 15 minutes after its timestamp and works once. Tampered, expired, replayed or foreign links get an error page (400, 401, 403, 409, 422), never a session.',
  ...(method === 'get'
    ? { parameters: [query('developer-id', 'Or the developer-id header.'), query('data', 'Hex of the link JSON.'), query('e_data', 'Hex of IV + AES-256-CBC ciphertext.')] }
    : { requestBody: form(SSO_PARAMS) }),
  responses: {
    302: redirect(`Signed in: to the hosted page the link names (/hosted/{route}), with the session cookie. (${path})`),
    400: pageRefusal('The link cannot be read, misses fields or has expired.'),
    401: pageRefusal('The user or the user api key in the link is wrong.'),
    403: pageRefusal('Wrong developer-id, or a location the user may not reach.'),
    409: pageRefusal('The link was used before.'),
    422: pageRefusal('The contact in the link was refused.'),
  },
});

export function oauthOpenApi(): OpenApiPart {
  return {
    tags: [
      { name: 'oauth', description: 'OAuth 2.0 authorization code flow (with optional PKCE S256) and client registration.' },
      { name: 'sso', description: 'Single sign-on links and the hosted pages they open.' },
    ],
    schemas: { OAuthClient: CLIENT, OAuthClientCreate: CLIENT_CREATE, OAuthToken: TOKEN },
    paths: {
      [AUTHORIZE_PATH]: {
        get: {
          ...open,
          tags: ['oauth'],
          operationId: 'oauthAuthorize',
          summary: 'Start signing in: the login page',
          parameters: [
            query('client_id', 'A registered client.', { type: 'string' }, true),
            query('redirect_uri', 'Exactly one of the client’s registered redirect URLs.', uri, true),
            query('response_type', 'Must be code.', { const: 'code' }, true),
            query('state', 'Echoed to the redirect_uri.', { type: 'string', maxLength: STATE_MAX }),
            query('scope', 'api (or empty).', { type: 'string', enum: ['', 'api'] }),
            query('code_challenge', 'PKCE: the S256 challenge (43 characters, base64url).', { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' }),
            query('code_challenge_method', 'PKCE: S256 (plain is refused).', { const: 'S256' }),
          ],
          responses: {
            200: html('The login page (domain, username, password).'),
            302: redirect('A protocol error, sent back to the registered redirect_uri with error, error_description and state.'),
            400: pageRefusal('Unknown client, or a redirect_uri that is not registered: never redirected to.'),
          },
        },
        post: {
          ...open,
          tags: ['oauth'],
          operationId: 'oauthAuthorizeForm',
          summary: 'The login and consent forms',
          requestBody: form(AUTHORIZE_POST),
          responses: {
            200: html('After login: the consent page (Allow / Deny).'),
            302: redirect('After the decision: to the redirect_uri with code, state and user_id (allow) or error=access_denied (deny).'),
            400: pageRefusal('Missing fields, or the sign-in request expired (10 minutes).'),
            401: pageRefusal('Wrong login domain, username or password: the login page again.'),
            403: pageRefusal('The form could not be verified (CSRF token or request cookie).'),
            429: pageRefusal('Too many wrong passwords for this login: locked for a while.'),
          },
        },
      },
      '/o/token': {
        post: {
          ...open,
          tags: ['oauth'],
          operationId: 'oauthToken',
          summary: 'Exchange a code, or refresh a pair',
          description: 'Codes are single-use and expire within minutes. Answers carry Cache-Control: no-store.',
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: TOKEN_REQUEST }, ...jsonContent(TOKEN_REQUEST) } },
          responses: { 200: responseOf('A token pair.', ref('OAuthToken')), 400: { $ref: '#/components/responses/Error400' }, ...errorResponses([401]) },
        },
      },
      '/o/revoke': {
        post: {
          ...open,
          tags: ['oauth'],
          operationId: 'oauthRevoke',
          summary: 'Revoke a token pair',
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: REVOKE_REQUEST }, ...jsonContent(REVOKE_REQUEST) } },
          responses: { 204: { description: 'Revoked (also when the token was unknown or already revoked).' }, ...errorResponses([400, 401]) },
        },
      },
      '/v2/oauthclients': {
        get: {
          tags: ['oauth'],
          operationId: 'oauthclientsList',
          summary: 'Registered client applications (admin users)',
          responses: { 200: responseOf('The clients of the developer company.', { type: 'object', required: ['oauthclients'], properties: { oauthclients: { type: 'array', items: ref('OAuthClient') } } }), ...errorResponses(COMMON_ERRORS) },
        },
        post: {
          tags: ['oauth'],
          operationId: 'oauthclientsCreate',
          summary: 'Register a client application (admin users)',
          description: 'Answers the client id and, once, its secret.',
          requestBody: { required: true, content: jsonContent(wrapper('oauthclient', ref('OAuthClientCreate'))) },
          responses: { 201: responseOf('The registered client with its secret.', wrapper('oauthclient', ref('OAuthClient'))), ...errorResponses([...COMMON_ERRORS, ...BODY_ERRORS]) },
        },
      },
      '/v2/oauthclients/{id}': {
        get: {
          tags: ['oauth'],
          operationId: 'oauthclientsView',
          summary: 'A registered client (admin users)',
          parameters: [idPathParameter('The client id.')],
          responses: { 200: responseOf('The client (never its secret).', wrapper('oauthclient', ref('OAuthClient'))), ...errorResponses(COMMON_ERRORS) },
        },
        delete: {
          tags: ['oauth'],
          operationId: 'oauthclientsDelete',
          summary: 'Remove a client and revoke its tokens (admin users)',
          parameters: [idPathParameter('The client id.')],
          responses: { 204: { description: 'Removed.' }, ...errorResponses(COMMON_ERRORS) },
        },
      },
      '/custom/sso': { get: ssoOperation('get', '/custom/sso', 'ssoGet', 'a user'), post: ssoOperation('post', '/custom/sso', 'ssoPost', 'a user') },
      '/custom/contactsso': {
        get: ssoOperation('get', '/custom/contactsso', 'contactSsoGet', 'a user for a contact'),
        post: ssoOperation('post', '/custom/contactsso', 'contactSsoPost', 'a user for a contact'),
      },
      '/hosted/{route}': {
        get: {
          ...open,
          tags: ['sso'],
          operationId: 'hostedPage',
          summary: 'A hosted page, signed in by an SSO link (session cookie)',
          parameters: [{ name: 'route', in: 'path', required: true, description: 'The page.', schema: { type: 'string', enum: [...HOSTED_ROUTES] } }],
          responses: { 200: html('The page (the charge form for virtualterminal).'), 401: pageRefusal('No session: open the SSO link again.'), 404: pageRefusal('No such page.') },
        },
      },
      '/hosted/virtualterminal': {
        post: {
          ...open,
          tags: ['sso'],
          operationId: 'hostedCharge',
          summary: 'The hosted charge form',
          description: 'Runs a sale through the normal transaction path. Each form carries a one-time token, so a double submit cannot charge twice.',
          requestBody: form({
            type: 'object',
            required: ['csrf_token', 'transaction_amount', 'account_number', 'exp_date'],
            properties: {
              csrf_token: { type: 'string' },
              transaction_amount: { type: 'string', pattern: '^[0-9]{1,10}(\\.[0-9]{1,2})?$' },
              description: { type: 'string' },
              account_holder_name: { type: 'string' },
              account_number: { type: 'string', description: 'Never shown again or stored.' },
              exp_date: { type: 'string', pattern: '^[0-9]{4}$' },
              cvv: { type: 'string', pattern: '^[0-9]{3,4}$' },
              billing_street: { type: 'string' },
              billing_zip: { type: 'string' },
            },
          }),
          responses: { 200: html('The result (approved or declined, in words).'), 400: pageRefusal('Bad input: the form again with the reason.'), 401: pageRefusal('No session.'), 403: pageRefusal('The form could not be verified.') },
        },
      },
    },
  };
}
