/**
 * The merchant module's hand-written routes in the OpenAPI document (`/users/me`,
 * `/users/{id}/generateuserapikey`, `/locations/{id}/credentials`, the `locationinfos`
 * list); its declared resources describe themselves (framework/resource-openapi.ts).
 */
import { BODY_ERRORS, COMMON_ERRORS, errorResponses, idPathParameter, jsonContent, ref, wrapper, type OpenApiPart } from '../framework/openapi-document';
import { listOperation, recordSchemaName, responseOf, writeSchema } from '../framework/resource-openapi';
import { locationInfoResource } from './location-infos';
import { credentialsDef, locationResource } from './locations';
import { userResource } from './users';

export function merchantOpenApi(): OpenApiPart {
  const user = wrapper('user', ref(recordSchemaName(userResource)));
  const location = wrapper('location', ref(recordSchemaName(locationResource)));
  return {
    schemas: { LocationCredentials: writeSchema(credentialsDef, 'update') },
    paths: {
      '/v2/users/me': {
        get: {
          tags: ['users'],
          operationId: 'usersMe',
          summary: 'The calling user',
          responses: { 200: responseOf('The user the credentials belong to.', user), ...errorResponses([401, 403]) },
        },
      },
      '/v2/users/{id}/generateuserapikey': {
        post: {
          tags: ['users'],
          operationId: 'usersGenerateApiKey',
          summary: 'Generate a new API key for a user',
          description: 'The new key is in `user_api_key` of this answer only (stored hashed). Answers 200: no record is created.',
          parameters: [idPathParameter('The user id.')],
          responses: { 200: responseOf('The user with its new key.', user), ...errorResponses(COMMON_ERRORS) },
        },
      },
      '/v2/locations/{id}/credentials': {
        put: {
          tags: ['locations'],
          operationId: 'locationsCredentials',
          summary: 'Change a location\'s api id, api key or ticket hash key',
          parameters: [idPathParameter()],
          requestBody: { required: true, content: jsonContent(wrapper('location', ref('LocationCredentials'))) },
          responses: { 200: responseOf('The location.', location), ...errorResponses([...COMMON_ERRORS, ...BODY_ERRORS, 409]) },
        },
      },
      '/v2/locationinfos': {
        get: listOperation(locationInfoResource, [
          { name: 'relationship', in: 'query', required: false, description: '`direct` (the default): only the locations the user is a direct member of; `all`: their descendants too.', schema: { type: 'string', enum: ['direct', 'all'] } },
        ]),
      },
    },
  };
}
