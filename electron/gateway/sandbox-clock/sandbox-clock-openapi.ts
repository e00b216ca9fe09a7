/** The sandbox clock routes in the OpenAPI document. */
import { BODY_ERRORS, errorResponses, integerInput, ref, type OpenApiPart } from '../framework/openapi-document';

const clock = {
  type: 'object',
  required: ['clock'],
  properties: {
    clock: {
      type: 'object',
      required: ['location_id', 'now', 'offset_seconds'],
      properties: {
        location_id: { type: 'string' },
        now: { type: 'integer', description: 'Unix seconds at the location (engine clock + offset).' },
        offset_seconds: { type: 'integer', minimum: 0 },
      },
    },
  },
};


/** `maxSeconds`: the largest advance the module takes. */
export function sandboxClockOpenApi(maxSeconds: number): OpenApiPart {
  return {
    tags: [{ name: 'Sandbox clock', description: 'Sandbox only: move a location\'s time forward and run what falls due.' }],
    schemas: { SandboxClock: clock },
    paths: {
      '/sandbox/clock': {
        get: {
          tags: ['Sandbox clock'],
          operationId: 'sandboxClockView',
          summary: 'A location\'s sandbox clock',
          parameters: [{ name: 'location_id', in: 'query', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'The clock', content: { 'application/json': { schema: ref('SandboxClock') } } }, ...errorResponses([401, 403, 422]) },
        },
      },
      '/sandbox/clock/advance': {
        post: {
          tags: ['Sandbox clock'],
          operationId: 'sandboxClockAdvance',
          summary: 'Move a location\'s time forward and run everything that falls due',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', required: ['clock'], properties: { clock: { type: 'object', required: ['location_id', 'seconds'], properties: { location_id: { type: 'string' }, seconds: integerInput({ minimum: 1, maximum: maxSeconds }) } } } } } },
          },
          responses: { '200': { description: 'The new clock', content: { 'application/json': { schema: ref('SandboxClock') } } }, ...errorResponses([401, 403, ...BODY_ERRORS]) },
        },
      },
    },
  };
}
