/** The postbacks module's hand-written route (redeliver) in the OpenAPI document; the delivery log itself is a declared resource. */
import { COMMON_ERRORS, errorResponses, idPathParameter, jsonContent, ref, wrapper, type OpenApiPart } from '../framework/openapi-document';

export function postbacksOpenApi(): OpenApiPart {
  return {
    paths: {
      '/v2/postbackdeliveries/{id}/redeliver': {
        post: {
          tags: ['postbackdeliveries'],
          operationId: 'postbackdeliveryRedeliver',
          summary: 'Send a postback again (engine extension)',
          description:
            'Starts a fresh series of attempts (number_of_attempts of the config, attempt_interval apart) and answers once the first attempt\'s outcome is recorded.',
          parameters: [idPathParameter('The delivery id.')],
          responses: { '200': { description: 'The delivery after the attempt', content: jsonContent(wrapper('postbackdelivery', ref('Postbackdelivery'))) }, ...errorResponses(COMMON_ERRORS) },
        },
      },
    },
  };
}
