import { sql } from 'kysely';
import type { AttachedFile } from '../../domain/attachments';
import { toIsoTimestamp } from '../db/dialect';
import type { Db, Scope } from '../db/scope';

/**
 * Files attached to records: metadata in `files`, bytes in `file_contents` (read only by a
 * download). Every query is scoped by business, parent resource and parent record, so a file is
 * found only through the record it belongs to.
 */

/** The parent a file hangs on: a record of `resource` in the scope's business. */
export interface FileParent {
  resource: string;
  recordId: number;
}

export type FileTrashFilter = 'active' | 'trashed' | 'all';

export interface FileListQuery {
  filter: FileTrashFilter;
  order: 'asc' | 'desc';
  page: number;
  perPage: number;
  /** One file by id (the file screen reads its metadata this way). */
  id?: number;
}

function filesOf(db: Db, scope: Scope, parent: FileParent) {
  return db
    .selectFrom('files')
    .where('files.business_id', '=', scope.businessId)
    .where('files.resource', '=', parent.resource)
    .where('files.record_id', '=', parent.recordId);
}

function withUploader(query: ReturnType<typeof filesOf>) {
  return query
    .leftJoin('users', 'users.id', 'files.uploaded_by')
    .select([
      'files.id',
      'files.record_id',
      'files.name',
      'files.mime_type',
      'files.size',
      'files.uploaded_by',
      'users.name as uploaded_by_name',
      'files.created_at',
      'files.updated_at',
      'files.deleted_at',
      'files.version',
    ]);
}

type FileRow = Awaited<ReturnType<ReturnType<typeof withUploader>['executeTakeFirstOrThrow']>>;

function toApiFile(row: FileRow): AttachedFile {
  return {
    id: Number(row.id),
    record_id: Number(row.record_id),
    name: row.name,
    mime_type: row.mime_type,
    size: Number(row.size),
    uploaded_by: row.uploaded_by === null ? null : Number(row.uploaded_by),
    uploaded_by_name: row.uploaded_by_name ?? null,
    created_at: toIsoTimestamp(row.created_at) as string,
    updated_at: toIsoTimestamp(row.updated_at) as string,
    deleted_at: toIsoTimestamp(row.deleted_at),
    version: Number(row.version),
  };
}

export async function listFiles(db: Db, scope: Scope, parent: FileParent, query: FileListQuery) {
  let filtered = filesOf(db, scope, parent);
  if (query.filter === 'active') filtered = filtered.where('files.deleted_at', 'is', null);
  if (query.filter === 'trashed') filtered = filtered.where('files.deleted_at', 'is not', null);
  if (query.id !== undefined) filtered = filtered.where('files.id', '=', query.id);
  const counted = await filtered.select(sql<number>`count(*)`.as('count')).executeTakeFirstOrThrow();
  const rows = await withUploader(filtered)
    .orderBy('files.id', query.order)
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
    .execute();
  return { files: rows.map(toApiFile), total: Number(counted.count) };
}

export async function findFile(db: Db, scope: Scope, parent: FileParent, fileId: number): Promise<AttachedFile | undefined> {
  const row = await withUploader(filesOf(db, scope, parent).where('files.id', '=', fileId)).executeTakeFirst();
  return row ? toApiFile(row) : undefined;
}

/** A file's bytes and what a download says about them. */
export async function readFileContent(db: Db, scope: Scope, parent: FileParent, fileId: number) {
  return filesOf(db, scope, parent)
    .innerJoin('file_contents', 'file_contents.file_id', 'files.id')
    .select(['files.name', 'files.mime_type', 'files.sha256', 'file_contents.content'])
    .where('files.id', '=', fileId)
    .executeTakeFirst();
}

export interface NewFile {
  name: string;
  mimeType: string;
  sha256: string;
  content: Buffer;
}

export async function insertFile(trx: Db, scope: Scope, parent: FileParent, file: NewFile, now: string): Promise<number> {
  const row = await trx
    .insertInto('files')
    .values({
      business_id: scope.businessId,
      resource: parent.resource,
      record_id: parent.recordId,
      name: file.name,
      mime_type: file.mimeType,
      size: file.content.length,
      sha256: file.sha256,
      uploaded_by: scope.userId,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      version: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await trx.insertInto('file_contents').values({ file_id: id, content: file.content }).execute();
  return id;
}

/** Sets or clears the trashed mark, bumping the version. */
export async function setFileTrashed(trx: Db, scope: Scope, fileId: number, deletedAt: string | null, now: string) {
  await trx
    .updateTable('files')
    .set((eb) => ({ deleted_at: deletedAt, updated_at: now, version: eb('version', '+', 1) }))
    .where('id', '=', fileId)
    .where('business_id', '=', scope.businessId)
    .execute();
}

export async function removeFile(trx: Db, scope: Scope, fileId: number): Promise<void> {
  const owned = trx.selectFrom('files').select('id').where('id', '=', fileId).where('business_id', '=', scope.businessId);
  await trx.deleteFrom('file_contents').where('file_id', 'in', owned).execute();
  await trx.deleteFrom('files').where('id', '=', fileId).where('business_id', '=', scope.businessId).execute();
}

/** Every file of a record, bytes and all: what goes with the record when it is deleted permanently. */
export async function removeFilesOf(trx: Db, scope: Scope, parent: FileParent): Promise<void> {
  await trx
    .deleteFrom('file_contents')
    .where('file_id', 'in', filesOf(trx, scope, parent).select('files.id'))
    .execute();
  await trx
    .deleteFrom('files')
    .where('business_id', '=', scope.businessId)
    .where('resource', '=', parent.resource)
    .where('record_id', '=', parent.recordId)
    .execute();
}
