/** The batch close time route (batch-close-module.ts) in the OpenAPI document. */
import { BODY_ERRORS, COMMON_ERRORS, errorResponses, idPathParameter, jsonContent, wrapper, type OpenApiPart } from '../framework/openapi-document';

const time = { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', example: '23:59', description: 'Time of day (HH:MM, location time) at which the open batch closes by itself.' };

export function batchCloseOpenApi(): OpenApiPart {
  return {
    tags: [{ name: 'producttransactions', description: 'Engine extension: the daily batch close time of a product transaction.' }],
    paths: {
      '/v2/producttransactions/{id}': {
        put: {
          tags: ['producttransactions'],
          operationId: 'producttransactionSetBatchCloseTime',
          summary: 'Set the daily batch close time (engine extension)',
          description: 'Only batch_close_time may be sent. Needs the settle permission. Default 23:59.',
          parameters: [idPathParameter('The product transaction id.')],
          requestBody: {
            required: true,
            content: jsonContent(wrapper('producttransaction', { type: 'object', required: ['batch_close_time'], additionalProperties: false, properties: { batch_close_time: time } })),
          },
          responses: {
            '200': {
              description: 'The product transaction',
              content: jsonContent(wrapper('producttransaction', { type: 'object', required: ['id', 'batch_close_time'], additionalProperties: true, properties: { id: { type: 'string' }, location_id: { type: 'string' }, batch_close_time: time } })),
            },
            ...errorResponses([...COMMON_ERRORS, ...BODY_ERRORS]),
          },
        },
      },
    },
  };
}
