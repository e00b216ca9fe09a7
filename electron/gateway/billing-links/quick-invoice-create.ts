/**
 * POST /v2/quickinvoices, hand-written because it takes two bodies: the JSON wrapper, or
 * multipart/form-data with `quickinvoice[field]`, `quickinvoice[item_list][<item>]`,
 * `quickinvoice[tags][<n>]` and file parts `quickinvoice[files][<n>]` (@fastify/multipart,
 * registered only in this route's plugin so every other /v2 route still answers 415 for
 * it). Files: at most 4, each at most 5 MB (the family's limits); more, or larger, is a
 * 422 in the envelope and nothing is stored. Both bodies then go through the declared
 * resource's validation and hooks, and the files are stored in the same transaction.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EngineContext } from '../framework/context';
import { keepsDigitsOf, maskCardNumbers } from '../framework/card-mask';
import { ApiError, ErrorCollector, fmt } from '../framework/errors';
import { acceptBody } from '../framework/http-plumbing';
import { BILLING_MSG } from './billing-messages';
import { quickInvoiceResource } from './quick-invoices';

export const MAX_FILES = 4;
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

interface Upload {
  name: string;
  type: string;
  data: Buffer;
}

/** `quickinvoice[a][b]` → ['a', 'b'] (undefined for other names). */
function pathOf(name: string): string[] | undefined {
  const m = /^quickinvoice((?:\[[^\]]*\])+)$/.exec(name);
  if (!m) return undefined;
  return [...(m[1] as string).matchAll(/\[([^\]]*)\]/g)].map((x) => x[1] as string);
}

async function readMultipart(req: FastifyRequest): Promise<{ body: Record<string, unknown>; files: Upload[] }> {
  const inv: Record<string, unknown> = {};
  const files: Upload[] = [];
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES, fields: 200, fieldSize: 64 * 1024, parts: 210 } })) {
      const path = pathOf(part.fieldname);
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (path?.[0] === 'files') files.push({ name: part.filename || 'file', type: part.mimetype || 'application/octet-stream', data });
        continue;
      }
      if (!path || path.length === 0) continue;
      const value = typeof part.value === 'string' ? part.value : String(part.value);
      const [head, sub] = path as [string, string | undefined];
      if (path.length === 1) inv[head] = value;
      else if (sub !== undefined) {
        const obj = (inv[head] && typeof inv[head] === 'object' ? inv[head] : (inv[head] = {})) as Record<string, unknown>;
        obj[sub] = value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(422, { files: [fmt(BILLING_MSG.FILE_TOO_LARGE, { max: MAX_FILE_BYTES / 1024 / 1024 })] });
    if (code === 'FST_FILES_LIMIT') throw new ApiError(422, { files: [fmt(BILLING_MSG.FILE_TOO_MANY, { max: MAX_FILES })] });
    throw new ApiError(422, { general: [fmt(BILLING_MSG.MULTIPART_BAD, { reason: (err as Error).message })] });
  }
  return { body: { quickinvoice: inv }, files };
}

export function registerQuickInvoiceCreate(app: FastifyInstance, ctx: EngineContext): void {
  const def = quickInvoiceResource;
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES } });
    // Card numbers (framework/card-mask.ts): the declared resource's rules, for a JSON body by the
    // parser, for a multipart one here; a file's name is free text (its content is stored as sent).
    const config = { allow: def.allow.create, keepsDigits: keepsDigitsOf(def) };
    scope.post('/v2/quickinvoices', { config }, async (req, reply) => {
      const { body, files } = req.isMultipart() ? await readMultipart(req) : { body: req.body, files: [] as Upload[] };
      if (req.isMultipart()) acceptBody(body, config.keepsDigits);
      for (const f of files) f.name = maskCardNumbers(f.name);
      const input = ctx.validateWrite(def, body, 'create', req);
      const row = ctx.db.transaction(() => {
        const args = { ctx, auth: req.auth, req, errs: new ErrorCollector() };
        def.beforeInsert?.({ ...args, input });
        args.errs.throwIfAny();
        const created = ctx.insert(def, input.values, req.auth);
        const now = ctx.clock.now();
        for (const f of files) {
          ctx.stmt('INSERT INTO quick_invoice_files (id, quick_invoice_id, file_name, content_type, size, data, created_ts) VALUES (?, ?, ?, ?, ?, ?, ?)').run(ctx.newId(), created.id, f.name.slice(0, 255), f.type.slice(0, 127), f.data.length, f.data, now);
        }
        def.afterInsert?.({ ...args, input, row: created });
        return ctx.getById(def, created.id) ?? created;
      })();
      return reply.code(201).send({ [def.name]: ctx.serialize(def, row, req.auth, ctx.expandsOf(def, req)) });
    });
  });
}
