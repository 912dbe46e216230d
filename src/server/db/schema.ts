import type { Generated } from 'kysely';

/**
 * Typed tables of identity, tenancy and bookkeeping. The resource tables (brands, items, …) are
 * reached by the generic engine through their definitions and are not typed here.
 * Timestamps are ISO strings on SQLite and Date on PostgreSQL; see `toIsoTimestamp`.
 */

type Timestamp = string | Date;

interface RecordColumns {
  id: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
  version: Generated<number>;
}

export interface BusinessesTable extends RecordColumns {
  name: string;
  tin: string | null;
  address: string | null;
  phone: string | null;
  email: string | null;
  vat_registered: number;
}

export interface UsersTable extends RecordColumns {
  name: string;
  email: string;
  username: string | null;
  password_hash: string;
  security_pin_hash: string | null;
}

export interface MembershipsTable extends RecordColumns {
  user_id: number;
  business_id: number;
  userable_type: string | null;
  userable_id: number | null;
}

export interface SessionsTable {
  token_hash: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface RolesTable extends RecordColumns {
  business_id: number;
  name: string;
  description: string | null;
}

export interface PermissionsTable extends RecordColumns {
  name: string;
  group: string;
}

export interface RolePermissionsTable {
  role_id: number;
  permission_id: number;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface IdempotencyKeysTable {
  user_id: number;
  /** 0 for calls made without a business. */
  business_id: number;
  key: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: Timestamp;
}

export interface ResourceCountsTable {
  business_id: number;
  resource: string;
  active: number;
  trashed: number;
}

/** One change of a record; rows are only ever inserted. `changes` is JSON text. */
export interface ActivityLogTable {
  id: Generated<number>;
  business_id: number;
  user_id: number;
  resource: string;
  record_id: number;
  action: string;
  changes: string | null;
  summary: string | null;
  happened_at: Timestamp;
  made_at: Timestamp | null;
  made_offline: number;
}

/** A file attached to a record of `resource`; its bytes are in `file_contents`. */
export interface FilesTable extends RecordColumns {
  business_id: number;
  resource: string;
  record_id: number;
  name: string;
  mime_type: string;
  size: number;
  sha256: string;
  uploaded_by: number | null;
}

export interface FileContentsTable {
  file_id: number;
  content: Buffer;
}

export interface Database {
  businesses: BusinessesTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  roles: RolesTable;
  permissions: PermissionsTable;
  role_permissions: RolePermissionsTable;
  user_roles: UserRolesTable;
  idempotency_keys: IdempotencyKeysTable;
  resource_counts: ResourceCountsTable;
  files: FilesTable;
  file_contents: FileContentsTable;
  activity_log: ActivityLogTable;
}
