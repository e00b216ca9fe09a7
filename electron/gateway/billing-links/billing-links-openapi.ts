/** The pay link and quick invoice actions and payment pages in the OpenAPI document. */
import type { EngineContext } from '../framework/context';
import { BODY_ERRORS, COMMON_ERRORS, errorResponses, idPathParameter, jsonContent, pageRefusal, ref, wrapper, type JsonSchema, type OpenApiPart } from '../framework/openapi-document';
import { writeSchema, writeSchemaName } from '../framework/resource-openapi';
import { MAX_FILE_BYTES, MAX_FILES } from './quick-invoice-create';
import { quickInvoiceResource } from './quick-invoices';

const open = { security: [] as Record<string, string[]>[] };
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const form = (schema: JsonSchema) => ({ required: true, content: { 'application/x-www-form-urlencoded': { schema } } });
const query = (name: string, description: string, required = false) => ({ name, in: 'query' as const, required, description, schema: { type: 'string' } });

const PAY_FORM: JsonSchema = {
  type: 'object',
  required: ['form_id', 'csrf_token', 'payment_method'],
  properties: {
    form_id: { type: 'string' },
    csrf_token: { type: 'string' },
    payment_method: { type: 'string', enum: ['cc', 'ach'] },
    amount: { type: 'string', description: 'When the payer chooses the amount (no amount_due; partial or over payment allowed).' },
    account_holder_name: { type: 'string' },
    account_number: { type: 'string', description: 'Card number: never shown again or stored in plaintext.' },
    exp_date: { type: 'string' },
    cvv: { type: 'string' },
    billing_street: { type: 'string' },
    billing_zip: { type: 'string' },
    ach_account_holder_name: { type: 'string' },
    routing: { type: 'string' },
    ach_account_number: { type: 'string' },
  },
};

const pageAnswers = {
  200: html('The page (the form, or "already paid").'),
  201: html('Payment approved.'),
  403: pageRefusal('The form could not be verified: the form again.'),
  404: pageRefusal('No such link.'),
  409: pageRefusal('Paid or closed meanwhile: nothing was charged.'),
  410: pageRefusal('Expired or withdrawn.'),
  422: pageRefusal('Bad input: the form again with the reason in words.'),
};

export function billingLinksOpenApi(_ctx: EngineContext): OpenApiPart {
  const qiSingle = wrapper('quickinvoice', ref('Quickinvoice'));
  const createName = writeSchemaName(quickInvoiceResource, 'create');
  const multipart: JsonSchema = {
    type: 'object',
    description: `Keys quickinvoice[title], quickinvoice[due_date], quickinvoice[location_id], quickinvoice[item_list][<item>], quickinvoice[tags][<n>], quickinvoice[send_email], quickinvoice[email], quickinvoice[attach_files_to_email] …, and file parts quickinvoice[files][<n>] (at most ${MAX_FILES}, each at most ${MAX_FILE_BYTES / 1024 / 1024} MB).`,
    additionalProperties: true,
  };
  const idErrors = errorResponses([...COMMON_ERRORS, 422]);
  const txnBody = { required: true, content: jsonContent(wrapper('quickinvoice', { type: 'object', required: ['transaction_id'], properties: { transaction_id: { type: 'string' } } })) };
  return {
    tags: [{ name: 'payment pages', description: 'Public pages a pay link or invoice e-mail points at.' }],
    schemas: { [createName]: writeSchema(quickInvoiceResource, 'create') },
    paths: {
      '/v2/quickinvoices': {
        post: {
          tags: ['quickinvoices'],
          operationId: 'quickinvoicesCreate',
          summary: 'Create a quick invoice (JSON, or multipart/form-data with files)',
          description: 'amount_due is the sum of item_list. The invoice is e-mailed unless send_email is 0, and texted when send_text_to_pay is 1.',
          requestBody: { required: true, content: { ...jsonContent(wrapper('quickinvoice', ref(createName))), 'multipart/form-data': { schema: multipart } } },
          responses: { 201: { description: 'Created.', content: jsonContent(qiSingle) }, ...errorResponses([...COMMON_ERRORS, ...BODY_ERRORS]) },
        },
      },
      '/v2/paylinks/{id}/resend': {
        post: {
          tags: ['paylinks'],
          operationId: 'paylinksResend',
          summary: 'Send the pay link again',
          description: 'On the channels delivery_method asks for that have a recipient; 422 when there is none.',
          parameters: [idPathParameter()],
          responses: { 204: { description: 'Sent (no body).' }, ...idErrors },
        },
      },
      '/v2/quickinvoices/{id}/resend': {
        post: {
          tags: ['quickinvoices'],
          operationId: 'quickinvoicesResend',
          summary: 'Send the invoice again (e-mail and SMS, or one of them)',
          parameters: [idPathParameter(), query('sms', '0: no SMS (e-mail only).'), query('email', '0: no e-mail (SMS only).')],
          responses: { 204: { description: 'Sent (no body).' }, ...idErrors },
        },
      },
      '/v2/quickinvoices/{id}/reopen': {
        post: {
          tags: ['quickinvoices'],
          operationId: 'quickinvoicesReopen',
          summary: 'Reopen a closed invoice',
          description: 'Only when closed, not expired, and unpaid or partly paid (or paid with allow_overpayment).',
          parameters: [idPathParameter()],
          responses: { 200: { description: 'The reopened invoice.', content: jsonContent(qiSingle) }, ...idErrors },
        },
      },
      '/v2/quickinvoices/{id}/addTransaction': {
        put: {
          tags: ['quickinvoices'],
          operationId: 'quickinvoicesAddTransaction',
          summary: 'Count an approved transaction towards the invoice',
          parameters: [idPathParameter()],
          requestBody: txnBody,
          responses: { 200: { description: 'The invoice with its new balance.', content: jsonContent(qiSingle) }, ...errorResponses([...COMMON_ERRORS, ...BODY_ERRORS]) },
        },
      },
      '/v2/quickinvoices/{id}/removeTransaction': {
        put: {
          tags: ['quickinvoices'],
          operationId: 'quickinvoicesRemoveTransaction',
          summary: 'Stop counting a transaction towards the invoice',
          parameters: [idPathParameter()],
          requestBody: txnBody,
          responses: { 200: { description: 'The invoice with its new balance.', content: jsonContent(qiSingle) }, ...errorResponses([...COMMON_ERRORS, ...BODY_ERRORS]) },
        },
      },
      '/paylink': {
        get: { ...open, tags: ['payment pages'], operationId: 'paylinkPage', summary: 'The pay link payment page', parameters: [query('paylink_id', 'The pay link.', true)], responses: { 200: pageAnswers[200], 404: pageAnswers[404], 410: pageAnswers[410] } },
        post: { ...open, tags: ['payment pages'], operationId: 'paylinkPay', summary: 'Pay a pay link', requestBody: form({ ...PAY_FORM, required: ['paylink_id', ...(PAY_FORM.required as string[])], properties: { paylink_id: { type: 'string' }, ...(PAY_FORM.properties as object) } }), responses: pageAnswers },
      },
      '/quickinvoice': {
        get: { ...open, tags: ['payment pages'], operationId: 'quickinvoicePage', summary: 'The invoice payment page', parameters: [query('id', 'The quick invoice.', true)], responses: { 200: pageAnswers[200], 404: pageAnswers[404], 410: pageAnswers[410] } },
        post: { ...open, tags: ['payment pages'], operationId: 'quickinvoicePay', summary: 'Pay an invoice', requestBody: form({ ...PAY_FORM, required: ['id', ...(PAY_FORM.required as string[])], properties: { id: { type: 'string' }, ...(PAY_FORM.properties as object) } }), responses: pageAnswers },
      },
      '/quickinvoice/file': {
        get: {
          ...open,
          tags: ['payment pages'],
          operationId: 'quickinvoiceFile',
          summary: 'A file attached to an invoice',
          parameters: [query('id', 'The quick invoice.', true), query('file_id', 'The file.', true)],
          responses: { 200: { description: 'The file.', content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } }, 404: pageRefusal('No such file.') },
        },
      },
    },
  };
}
