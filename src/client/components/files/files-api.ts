import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { AttachedFile } from '../../../domain/attachments';
import type { ListMeta } from '../../../domain/list-params';
import type { ResourceDefinition } from '../../../domain/resource';
import { api, apiFile, postWithProgress } from '../../lib/api';
import { clientKey } from '../../lib/outbox';
import { useActiveBusinessId } from '../../lib/session';

/**
 * Files attached to a record (`/api/{resource}/{recordId}/files`, see server/routes/files.routes.ts):
 * their list, uploads with progress, bytes for thumbnails and downloads. Files need the server:
 * they are never queued in the outbox nor kept on this device.
 */

export const filesPath = (resource: string, recordId: number | string) => `/api/${resource}/${recordId}/files`;

/** Under the record's resource key, so what refreshes a resource refreshes its files too. */
export const filesKey = (businessId: number | null, resource: string, recordId: number | string) =>
  [businessId, resource, 'files', String(recordId)] as const;

export type FilesShown = 'active' | 'all';

export const filesQuery = (businessId: number | null, definition: ResourceDefinition, recordId: number | string, shown: FilesShown) =>
  queryOptions({
    queryKey: [...filesKey(businessId, definition.name, recordId), 'list', shown],
    queryFn: ({ signal }) =>
      api<{ data: AttachedFile[]; meta: ListMeta }>('GET', filesPath(definition.name, recordId), {
        query: { per_page: 100, with_trashed: shown === 'all' },
        signal,
      }),
    retry: false,
  });

/** One file's metadata, trashed or not: the list asked for that id. */
export const fileQuery = (businessId: number | null, definition: ResourceDefinition, recordId: string, fileId: string) =>
  queryOptions({
    queryKey: [...filesKey(businessId, definition.name, recordId), 'file', fileId],
    queryFn: async ({ signal }) => {
      const answer = await api<{ data: AttachedFile[] }>('GET', filesPath(definition.name, recordId), {
        query: { id: fileId, with_trashed: true },
        signal,
      });
      return answer.data[0] ?? null;
    },
    retry: false,
  });

/** Sends one file as `multipart/form-data` (part `file`), reporting the share sent so far (0 to 1). */
export function uploadFile(resource: string, recordId: number | string, file: File, onProgress: (sent: number) => void) {
  const form = new FormData();
  form.append('file', file, file.name);
  return postWithProgress<AttachedFile>(filesPath(resource, recordId), form, { expected: 201, idempotencyKey: clientKey(), onProgress });
}

/** A file's bytes, with the name the server gives it. */
export const fetchFile = (definition: ResourceDefinition, recordId: number | string, fileId: number) =>
  apiFile(`${filesPath(definition.name, recordId)}/${fileId}`);

/**
 * An image file as an object URL for an `<img>` (the API needs headers a plain `src` cannot
 * send); undefined while loading or when it failed. The URL is revoked when no longer shown.
 */
export function useImageUrl(definition: ResourceDefinition, recordId: number | string, file: AttachedFile): string | undefined {
  const [url, setUrl] = useState<string>();
  const isImage = file.mime_type.startsWith('image/');
  useEffect(() => {
    if (!isImage) return undefined;
    let objectUrl: string | undefined;
    let cancelled = false;
    fetchFile(definition, recordId, file.id)
      .then(({ blob }) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => setUrl(undefined));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [definition, recordId, file.id, isImage]);
  return url;
}

/** After a file changed: its record's files, and the record's history, which tells of it. */
export function useRefreshAfterFileChange(definition: ResourceDefinition, recordId: number | string) {
  const queryClient = useQueryClient();
  const businessId = useActiveBusinessId();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: filesKey(businessId, definition.name, recordId) }),
      queryClient.invalidateQueries({ queryKey: [businessId, 'activity'] }),
    ]);
  };
}

const sizeFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** 2048 → "2 KB", 3_500_000 → "3.3 MB". */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${sizeFormat.format(bytes / 1024)} KB`;
  return `${sizeFormat.format(bytes / 1024 / 1024)} MB`;
}
