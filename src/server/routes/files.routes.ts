import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_FILE_BYTES, type AttachedFile } from '../../domain/attachments';
import { attributeName } from '../../domain/fields';
import { DEFAULT_PAGE_SIZE, listMeta, PAGE_SIZES } from '../../domain/list-params';
import { permissionName } from '../../domain/permissions';
import type { ResourceDefinition } from '../../domain/resource';
import { registry } from '../../domain/resources/registry';
import { recordActivity } from '../activity/activity-log';
import { nowIso } from '../db/dialect';
import { conflict, HttpError, notFound, validationError } from '../errors';
import { describeRefusedContent, detectFileKind, extensionOf, sanitizeFileName } from '../files/file-content';
import { findFile, insertFile, listFiles, readFileContent, removeFile, setFileTrashed, type FileParent } from '../files/file-store';
import { runWrite } from '../idempotency';
import { scopeOf } from '../plugins/auth';
import { listLinks } from './list-links';
import type { Db, Scope, Trx } from '../db/scope';
import { bytesAnswer, dataOf, listOf, noContent, refusals, PATH_ID } from './responses';
import { serializeRow, type ApiRecord } from '../resources/codec';
import { assertOperates, confinedToPlaces } from '../resources/places';
import { storeFor } from '../resources/stores';

/**
 * Files attached to the records of resources with `attachments` (documents, items, contacts,
 * branches, warehouses):
 *   GET    /api/{name}/{recordId}/files                               list    view-{prefix}
 *   POST   /api/{name}/{recordId}/files           multipart, "file"   201     update-{prefix}
 *   GET    /api/{name}/{recordId}/files/{fileId}                      bytes   view-{prefix}
 *   DELETE /api/{name}/{recordId}/files/{fileId}                      trash   update-{prefix}
 *   PATCH  /api/{name}/{recordId}/files/{fileId}/restore                      update-{prefix}
 *   DELETE /api/{name}/{recordId}/files/{fileId}/force-delete         204     update-{prefix}
 * The list takes page, per_page, order_by, with_trashed, only_trashed and id, and answers like
 * every list: `{ data: [{ id, record_id, name, mime_type, size, uploaded_by, uploaded_by_name,
 * created_at, updated_at, deleted_at, version }], meta, links }`.
 * Uploads: at most 10 MB (413); images and PDF only, judged by content, and a name's extension
 * must agree with it (415). The parent must be a record of the active business that the user may
 * read (at a place they view; and as its store reads it: a memo about a document they cannot view
 * is not there), and the file that parent's: anything else is a 404. Changing files needs what
 * changing the parent needs: `operate` at its place, and its store's rules (403).
 */

const ACCEPTED = 'only images (JPEG, PNG, GIF, WebP, HEIC) and PDF files can be attached';

const recordParams = z.object({ recordId: z.string().meta(PATH_ID) });
const fileParams = z.object({ recordId: z.string().meta(PATH_ID), fileId: z.string().meta({ ...PATH_ID, description: "The file's id" }) });

const flag = (name: string) =>
  z
    .enum(['0', '1', 'true', 'false'], { error: `The ${name} field must be 0 or 1.` })
    .transform((value) => value === '1' || value === 'true')
    .default(false);

const listQuery = z.object({
  page: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, 'The page field must be an integer from 1.')
    .transform(Number)
    .default(1),
  per_page: z
    .enum(PAGE_SIZES.map(String) as [string, ...string[]], { error: `The per page field must be one of ${PAGE_SIZES.join(', ')}.` })
    .transform(Number)
    .default(DEFAULT_PAGE_SIZE),
  order_by: z.enum(['asc', 'desc'], { error: 'The order by field must be asc or desc.' }).default('desc'),
  with_trashed: flag('with trashed'),
  only_trashed: flag('only trashed'),
  id: z.string().max(255).optional(),
});

const attachedFile: z.ZodType<AttachedFile> = z.looseObject({
  id: z.number().int(),
  record_id: z.number().int().describe('The record it is attached to'),
  name: z.string(),
  mime_type: z.string(),
  size: z.number().int().describe('In bytes'),
  uploaded_by: z.number().int().nullable(),
  uploaded_by_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
  version: z.number().int(),
});

/**
 * The upload as the API describes it: a multipart form whose part `file` holds the file. The
 * parts reach the handler unread, which reads and judges them itself (`readUpload`: 422 without
 * the part, 415 for another kind of body or file), so every body passes this schema.
 */
const uploadForm: z.ZodType<unknown> = z
  .object({ file: z.file().describe(`An image (JPEG, PNG, GIF, WebP, HEIC) or a PDF, at most ${MAX_FILE_BYTES / 1024 / 1024} MB`) })
  .optional()
  .catch(undefined);

function idFrom(raw: string, what: string): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) === 0) throw notFound(what);
  return Number(raw);
}

/**
 * The parent record, trashed or not, as its store reads it for this user: another business's, one
 * at a place they do not view (or a memo about a document there), or none is a 404.
 */
async function parentOrFail(db: Db, scope: Scope, definition: ResourceDefinition, recordId: number): Promise<ApiRecord> {
  const store = storeFor(definition);
  const readable = confinedToPlaces(store.query(db, scope), definition, store.column, scope);
  const row = await store.select(readable.where(store.column('id'), '=', recordId)).executeTakeFirst();
  if (!row) throw notFound(attributeName(definition.singular));
  return serializeRow(definition, row);
}

/**
 * Changing a record's files is changing the record: it needs `operate` at the record's place
 * (403), and whatever its store says about who may change it holds for them too (its `validate`,
 * asked as for an edit that changes no field: a memo needs the right to update the document it
 * is about, and to operate at its place).
 */
async function assertChangesParent(db: Db, scope: Scope, definition: ResourceDefinition, parent: ApiRecord) {
  await assertOperates(db, scope, definition, parent);
  const errors = (await storeFor(definition).validate?.(db, scope, {}, parent.id)) ?? {};
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/**
 * The parent of a change of its files, its row locked first as for an edit of it, so a change of
 * the record racing this one is decided before or after it. A trashed one must be restored first.
 */
async function activeParentOrFail(trx: Trx, scope: Scope, definition: ResourceDefinition, recordId: number) {
  await storeFor(definition).lock(trx, scope, recordId);
  const parent = await parentOrFail(trx, scope, definition, recordId);
  if (parent.deleted_at) {
    throw conflict(`This ${attributeName(definition.singular)} is in the trash; restore it before changing its files.`);
  }
  await assertChangesParent(trx, scope, definition, parent);
}

async function fileOrFail(db: Db, scope: Scope, parent: FileParent, fileId: number): Promise<AttachedFile> {
  const file = await findFile(db, scope, parent, fileId);
  if (!file) throw notFound('file');
  return file;
}

const unsupported = (message: string) => new HttpError(415, message, { file: [message] });

interface Upload {
  name: string;
  mimeType: string;
  content: Buffer;
  sha256: string;
}

/** The one part named `file`, read whole (at most 10 MB) and judged by its content. */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) throw unsupported('Send the file as multipart/form-data, in a part named "file".');
  let content: Buffer;
  let rawName: string;
  try {
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw validationError({ file: ['The file field is required.'] });
    rawName = part.filename;
    content = await part.toBuffer();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      const message = `The file may not be greater than ${MAX_FILE_BYTES / 1024 / 1024} MB.`;
      throw new HttpError(413, message, { file: [message] });
    }
    // A malformed or cut-short form is the sender's fault, never a server error.
    throw new HttpError(400, `The upload could not be read: ${(error as Error).message}.`);
  }
  if (content.length === 0) throw validationError({ file: ['The file is empty.'] });
  const kind = detectFileKind(content);
  if (!kind) throw unsupported(`The file's content is ${describeRefusedContent(content)}: ${ACCEPTED}.`);
  const name = sanitizeFileName(rawName, kind);
  const extension = extensionOf(name) as string;
  if (!kind.extensions.includes(extension)) {
    throw unsupported(
      `The file's content is ${kind.description}, but its name ends in .${extension}: rename it to .${kind.extensions[0]}.`,
    );
  }
  return { name, mimeType: kind.mimeType, content, sha256: createHash('sha256').update(content).digest('hex') };
}

/** `filename` for old clients (ASCII, no quotes), `filename*` with the real name in UTF-8. */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function mountFiles(app: FastifyInstance, definition: ResourceDefinition): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const base = `/api/${definition.name}/:recordId/files`;
  const view = { permission: permissionName('view', definition.permission) };
  const update = { permission: permissionName('update', definition.permission) };
  const tags = [definition.name];
  const noun = attributeName(definition.singular);
  const parentOf = (recordId: string): FileParent => ({ resource: definition.name, recordId: idFrom(recordId, noun) });

  routes.get(
    base,
    {
      config: view,
      schema: {
        tags,
        summary: `List the files of a ${noun}`,
        params: recordParams,
        querystring: listQuery,
        response: { 200: listOf(attachedFile).describe('A page of files'), ...refusals(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const parent = parentOf(request.params.recordId);
      await parentOrFail(request.server.db, scope, definition, parent.recordId);
      const { page, per_page: perPage, order_by: order, with_trashed, only_trashed, id } = request.query;
      const filter = only_trashed ? 'trashed' : with_trashed ? 'all' : 'active';
      const { files, total } = await listFiles(request.server.db, scope, parent, {
        filter,
        order,
        page,
        perPage,
        // Ids start at 1: one that is no whole number finds nothing, as in every list.
        id: id === undefined ? undefined : /^\d{1,9}$/.test(id) ? Number(id) : 0,
      });
      const meta = listMeta(total, page, perPage, files.length);
      return {
        data: files,
        meta,
        links: listLinks(request, meta),
      };
    },
  );

  routes.post(
    base,
    {
      config: update,
      schema: {
        tags,
        summary: `Attach a file to a ${noun}`,
        params: recordParams,
        consumes: ['multipart/form-data'],
        body: uploadForm,
        readsHeaders: ['Idempotency-Key', 'X-Made-At'],
        response: { 201: dataOf(attachedFile).describe('The attached file'), ...refusals(400, 401, 403, 404, 409, 413, 415, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const parent = parentOf(request.params.recordId);
      // Before reading up to 10 MB: is there such a record here at all, and may this user change it?
      const record = await parentOrFail(request.server.db, scope, definition, parent.recordId);
      await assertChangesParent(request.server.db, scope, definition, record);
      const upload = await readUpload(request);
      // The idempotency key's request hash covers the body; the upload's digest stands for it.
      request.body = { name: upload.name, sha256: upload.sha256 };
      return runWrite(request, reply, async (trx) => {
        await activeParentOrFail(trx, scope, definition, parent.recordId);
        const id = await insertFile(trx, scope, parent, upload, nowIso());
        await recordActivity(trx, scope, {
          resource: definition.name,
          recordId: parent.recordId,
          action: 'file-attached',
          summary: upload.name,
        });
        return { status: 201, body: { data: await fileOrFail(trx, scope, parent, id) } };
      });
    },
  );

  routes.get(
    `${base}/:fileId`,
    {
      config: view,
      schema: {
        tags,
        summary: `Download a file of a ${noun}`,
        params: fileParams,
        sendsHeaders: ['ETag'],
        response: {
          200: bytesAnswer(Buffer, 'The file, as an attachment', ['image/*', 'application/pdf'], 'binary'),
          ...refusals(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const parent = parentOf(request.params.recordId);
      await parentOrFail(request.server.db, scope, definition, parent.recordId);
      const file = await readFileContent(request.server.db, scope, parent, idFrom(request.params.fileId, 'file'));
      if (!file) throw notFound('file');
      return (
        reply
          .header('content-type', file.mime_type)
          .header('content-length', file.content.length)
          .header('content-disposition', contentDisposition(file.name))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          // Business papers on shared tablets: never kept in a browser's or a proxy's cache.
          .header('cache-control', 'private, no-store')
          .header('etag', `"${file.sha256}"`)
          .send(file.content)
      );
    },
  );

  const fileChange = (action: string, change: FileChange) => async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as z.infer<typeof fileParams>;
    return changeFile(request, reply, definition, parentOf(params.recordId), idFrom(params.fileId, 'file'), action, change);
  };

  routes.delete(
    `${base}/:fileId`,
    {
      config: update,
      schema: {
        tags,
        summary: `Move a file of a ${noun} to the trash`,
        params: fileParams,
        readsHeaders: ['Idempotency-Key', 'X-Made-At'],
        response: { 200: dataOf(attachedFile).describe('The file, in the trash'), ...refusals(401, 403, 404, 409, 422) },
      },
    },
    fileChange('file-deleted', async (trx, scope, file) => {
      if (file.deleted_at) throw conflict('This file is already in the trash.');
      await setFileTrashed(trx, scope, file.id, nowIso(), nowIso());
      return { status: 200 };
    }),
  );

  routes.patch(
    `${base}/:fileId/restore`,
    {
      config: update,
      schema: {
        tags,
        summary: `Restore a file of a ${noun} from the trash`,
        params: fileParams,
        readsHeaders: ['Idempotency-Key', 'X-Made-At'],
        response: { 200: dataOf(attachedFile).describe('The file, out of the trash'), ...refusals(401, 403, 404, 409, 422) },
      },
    },
    fileChange('file-restored', async (trx, scope, file) => {
      if (!file.deleted_at) throw conflict('This file is not in the trash.');
      await setFileTrashed(trx, scope, file.id, null, nowIso());
      return { status: 200 };
    }),
  );

  routes.delete(
    `${base}/:fileId/force-delete`,
    {
      config: update,
      schema: {
        tags,
        summary: `Delete a file of a ${noun} permanently`,
        params: fileParams,
        readsHeaders: ['Idempotency-Key', 'X-Made-At'],
        response: { 204: noContent('The file is gone'), ...refusals(401, 403, 404, 409, 422) },
      },
    },
    fileChange('file-force-deleted', async (trx, scope, file) => {
      if (!file.deleted_at) throw conflict('Move this file to the trash before deleting it permanently.');
      await removeFile(trx, scope, file.id);
      return { status: 204 };
    }),
  );
}

/** What a delete, restore or force delete does to the file; 200s answer with the file as it is after. */
type FileChange = (trx: Trx, scope: Scope, file: AttachedFile) => Promise<{ status: 200 | 204 }>;

/** One change of one file of an active parent, in one transaction with its activity entry on the parent. */
async function changeFile(
  request: FastifyRequest,
  reply: FastifyReply,
  definition: ResourceDefinition,
  parent: FileParent,
  fileId: number,
  action: string,
  change: FileChange,
) {
  const scope = scopeOf(request);
  return runWrite(request, reply, async (trx) => {
    await activeParentOrFail(trx, scope, definition, parent.recordId);
    const file = await fileOrFail(trx, scope, parent, fileId);
    const { status } = await change(trx, scope, file);
    await recordActivity(trx, scope, { resource: definition.name, recordId: parent.recordId, action, summary: file.name });
    return status === 204 ? { status } : { status, body: { data: await fileOrFail(trx, scope, parent, fileId) } };
  });
}

export async function filesRoutes(app: FastifyInstance): Promise<void> {
  // Scoped to these routes: JSON bodies elsewhere keep the 1 MB limit.
  await app.register(multipart, { limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 10, parts: 11 } });
  for (const definition of registry) if (definition.attachments) mountFiles(app, definition);
}
