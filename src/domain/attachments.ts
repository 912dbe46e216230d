/** The largest file a record takes. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** A nested file record (its own id and its record's record_id) as the API answers it. */
export interface AttachedFile {
  id: number;
  record_id: number;
  name: string;
  mime_type: string;
  size: number;
  uploaded_by: number | null;
  uploaded_by_name: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  version: number;
}
