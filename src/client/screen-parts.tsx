import { Link } from '@tanstack/react-router';
import { ShieldCheck, Users } from 'lucide-react';
import type { ComponentProps } from 'react';
import { DetailRow } from './components/crud/detail-row';
import { slots, type ActionProps, type CellProps, type FormSection, type RecordProps } from './components/crud/slots';
import { DocumentCreateScreen } from './components/documents/document-create-screen';
import { DocumentMemos } from './components/documents/document-memos';
import { deletable, DocumentActions, DocumentLines, RelatedDocuments, StatusBadge } from './components/documents/document-view';
import { emptyLine, LineItems, linesBody, rowsOf, type DocumentLine, type LineRow } from './components/documents/line-items';
import { lineContext } from './components/documents/line-pricing';
import { StockMovements } from './components/documents/stock-movements';
import { FilesPanel } from './components/files/files-panel';
import { navigationGroupOf } from './components/layout/navigation';
import { Badge } from './components/ui/badge';
import { Button } from './components/ui/button';
import { isClientKey } from './lib/outbox';
import type { ApiRecord } from './lib/resource-queries';

/**
 * What the app puts into the generic screens' slots: documents, attached files, stocks, roles and
 * users. The router loads this module before any screen, so every slot is filled when one renders.
 */

// Every list: the sidebar group that links it, as its small title.
slots.register('default', 'list.small-title', (definition) => navigationGroupOf(definition.name));

// Documents: their own create screen (made from a source, with provisional numbers), their lines,
// status, what comes next and what they led to.

/** A document's lines in the form: typed when it is made, and edited later only where its definition allows. */
const documentLines: FormSection = {
  name: 'lines',
  holds: (definition, editing) =>
    definition.document !== undefined &&
    definition.document.lines !== 'none' &&
    (!editing || Boolean(definition.document.updatable?.includes('lines'))),
  start: (record) => {
    const stored = record?.lines as DocumentLine[] | undefined;
    return stored && stored.length > 0 ? rowsOf(stored) : [emptyLine()];
  },
  body: (value) => linesBody(value as LineRow[]),
  Editor: DocumentLinesEditor,
};

function DocumentLinesEditor({ definition, value, onChange, errors, values }: ComponentProps<FormSection['Editor']>) {
  const rows = value as LineRow[];
  return (
    <LineItems
      rows={rows}
      onChange={onChange}
      errors={errors}
      fromSource={rows.some((line) => line.source_line_id)}
      priced={definition.document?.lines === 'priced'}
      context={lineContext(definition.document, values)}
    />
  );
}

function DocumentSections({ definition, record }: RecordProps) {
  return (
    <>
      <DocumentLines definition={definition} record={record} />
      <RelatedDocuments definition={definition} record={record} />
      <DocumentMemos definition={definition} record={record} />
    </>
  );
}

/** A document created on this device has no number until it syncs. */
function DocumentCell({ name, record, text }: CellProps) {
  return <>{isClientKey(record.id) && name === 'number' ? 'Number assigned on sync' : text}</>;
}

slots.register({ kind: 'document' }, 'create', DocumentCreateScreen);
slots.register({ kind: 'document' }, 'form.section', documentLines);
slots.register({ kind: 'document' }, 'list.cell', DocumentCell);
slots.register({ kind: 'document' }, 'view.badge', StatusBadge);
slots.register({ kind: 'document' }, 'view.actions', DocumentActions);
slots.register({ kind: 'document' }, 'view.deletable', deletable);
slots.register({ kind: 'document' }, 'view.sections', DocumentSections);

// Files: every record that takes them shows its Files panel once the server has it.

function RecordFiles({ definition, record }: RecordProps) {
  return <FilesPanel definition={definition} recordId={Number(record.id)} recordTrashed={record.deleted_at !== null} />;
}

slots.register({ kind: 'attachments' }, 'view.files', RecordFiles);

// Stocks: named by what and where, with their reorder level and the movements that make them up.

/** "of Silver Swan Vinegar at Valenzuela Central" */
const stockName = (record: ApiRecord) =>
  `of ${(record.item as { display?: string } | null)?.display ?? '—'} at ${(record.location as { display?: string } | null)?.display ?? '—'}`;

function ReorderLevel({ record }: RecordProps) {
  if (!('reorder_level_reached' in record)) return null;
  return (
    <DetailRow
      label="Reorder level"
      value={
        record.reorder_level === null
          ? '—'
          : `${String(record.reorder_level)}${record.reorder_level_reached ? ' — reached: time to request or order more' : ''}`
      }
    />
  );
}

function StockCell({ name, record, text }: CellProps) {
  return (
    <>
      {text}
      {name === 'quantity_on_hand' && record.reorder_level_reached === true && (
        <Badge variant="warning" className="ml-2">
          Reorder
        </Badge>
      )}
    </>
  );
}

function StockSections({ record }: RecordProps) {
  if (isClientKey(record.id)) return null;
  return <StockMovements stockId={Number(record.id)} unit={(record.unit as string | null) ?? null} />;
}

slots.register({ resource: 'stocks' }, 'view.title', stockName);
slots.register({ resource: 'stocks' }, 'view.details', ReorderLevel);
slots.register({ resource: 'stocks' }, 'view.sections', StockSections);
slots.register({ resource: 'stocks' }, 'list.cell', StockCell);

// Roles lead to their permissions and users to their roles, for those who may update them.

const names = (value: unknown) => (Array.isArray(value) && value.length > 0 ? value.join(', ') : '—');

function AssignPermissionsLink({ record, allowed }: ActionProps) {
  if (record.deleted_at || isClientKey(record.id) || !allowed('update')) return null;
  return (
    <Button asChild variant="outline">
      <Link to="/roles/$id/assign-permissions" params={{ id: String(record.id) }}>
        <ShieldCheck aria-hidden /> Assign Permissions
      </Link>
    </Button>
  );
}

function AssignRolesLink({ record, allowed }: ActionProps) {
  if (record.deleted_at || isClientKey(record.id) || !allowed('update')) return null;
  return (
    <Button asChild variant="outline">
      <Link to="/users/$id/assign-roles" params={{ id: String(record.id) }}>
        <Users aria-hidden /> Assign Roles
      </Link>
    </Button>
  );
}

/** A role's permissions, as the server lists them with it (a role created on this device has none yet). */
function RolePermissions({ record }: RecordProps) {
  return 'permission_names' in record ? <DetailRow label="Permissions" value={names(record.permission_names)} /> : null;
}

function UserRoles({ record }: RecordProps) {
  return 'role_names' in record ? <DetailRow label="Roles" value={names(record.role_names)} /> : null;
}

slots.register({ resource: 'roles' }, 'view.actions', AssignPermissionsLink);
slots.register({ resource: 'roles' }, 'view.details', RolePermissions);
slots.register({ resource: 'users' }, 'view.actions', AssignRolesLink);
slots.register({ resource: 'users' }, 'view.details', UserRoles);
