/** The recurring actions in the OpenAPI document (the resource's own routes describe themselves). */
import { errorResponses, jsonContent, ref, wrapper, type OpenApiPart } from '../framework/openapi-document';

const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const expandParam = { name: 'expand', in: 'query', required: false, schema: { type: 'string' }, description: 'Comma-separated expands of the recurring.' };
const answer = { '200': { description: 'The changed recurring', content: jsonContent(wrapper('recurring', ref('Recurring'))) } };

function action(operationId: string, summary: string, description: string, countName?: string) {
  const parameters: unknown[] = [idParam, expandParam];
  if (countName) parameters.push({ name: countName, in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 99, default: 1 } });
  return { post: { tags: ['recurrings'], operationId, summary, description, parameters, responses: { ...answer, ...errorResponses([401, 403, 404, 422]) } } };
}

export function recurringOpenApi(): OpenApiPart {
  return {
    paths: {
      '/v2/recurrings/{id}/placeOnHold': action('recurringsPlaceOnHold', 'Place an active recurring on hold', 'active → on hold; 422 from any other status.'),
      '/v2/recurrings/{id}/activate': action('recurringsActivate', 'Activate a recurring on hold', 'on hold → active; the schedule resumes at its first date on or after today (an installment defers the dates it missed).'),
      '/v2/recurrings/{id}/skipPayment': action('recurringsSkipPayment', 'Skip the next payments', 'next_run_date moves past skip_count payments; end_date unchanged; an installment collects that many fewer.', 'skip_count'),
      '/v2/recurrings/{id}/deferPayment': action('recurringsDeferPayment', 'Defer the next payments to the end (installments only)', 'defer_count payments are appended at the end; end_date moves later; the full count is still collected. 422 for ongoing recurrings.', 'defer_count'),
    },
  };
}
