import { Link } from '@tanstack/react-router';
import { ShieldCheck, Users, type LucideIcon } from 'lucide-react';
import type { ComponentProps } from 'react';
import { trashableIn } from '../domain/lifecycle';
import type { ResourceDefinition } from '../domain/resource';
import { registry } from '../domain/resources/registry';
import { paidInTenders } from '../domain/tenders';
import { DetailRow } from './components/crud/detail-row';
import { PrintButton } from './components/crud/print-button';
import { slots, type ActionProps, type CellProps, type FormSection, type RecordProps, type ScreenProps } from './components/crud/slots';
import { emptyLine, linesBody, rowsOf, type DocumentLine, type LineRow } from './components/documents/line-rows';
import { countsOnArrival, receiveSection } from './components/documents/receive-rows';
import { returnSection, returnsGoods } from './components/documents/return-rows';
import { emptyTender, paymentFieldsOf, tenderRowsOf, tendersBody, type TenderRow } from './components/documents/tender-rows';
import { StatusBadge } from './components/documents/status-badge';
import { StatementLink } from './features/statement/statement-link';
import { UserPlacesDetails } from './features/users/user-places-details';
import { placesBody, startingPlaces, type UserPlaces } from './features/users/user-places';
import { navigationGroupOf } from './components/layout/navigation';
import { Badge } from './components/ui/badge';
import { Button } from './components/ui/button';
import { lazyComponent } from './components/ui/deferred';
import { loadAhead } from './lib/load-ahead';
import { isClientKey } from './lib/outbox-queue';
import type { ApiRecord } from './lib/resource-queries';

/**
 * What the app puts into the generic screens' slots: documents, payments' tenders, attached files,
 * stocks, roles and users (with their places), and contacts' statements. The router loads this module before any screen, so every slot is filled when one renders;
 * the larger parts (a document's screens and editor, files, movements) load when first shown.
 */

const documentView = loadAhead(() => import('./components/documents/document-view'));
const DocumentCreateScreen = lazyComponent(() =>
  import('./components/documents/document-create-screen').then((m) => m.DocumentCreateScreen),
);
const DocumentLinesEditor = lazyComponent(() => import('./components/documents/document-lines-editor').then((m) => m.DocumentLinesEditor));
const DocumentLines = lazyComponent(() => documentView().then((m) => m.DocumentLines));
const RelatedDocuments = lazyComponent(() => documentView().then((m) => m.RelatedDocuments));
const DocumentActions = lazyComponent<ActionProps>(() => documentView().then((m) => m.DocumentActions));
const DocumentMemos = lazyComponent(() => import('./components/documents/document-memos').then((m) => m.DocumentMemos));
const documentPrintout = loadAhead(() => import('./components/documents/document-printout'));
const DocumentPrintout = lazyComponent(() => documentPrintout().then((m) => m.DocumentPrintout));
const DocumentPrintButtons = lazyComponent<RecordProps>(() => documentPrintout().then((m) => m.DocumentPrintButtons));
const StockCountSheet = lazyComponent(() => import('./components/documents/stock-count-sheet').then((m) => m.StockCountSheet));
const StockMovements = lazyComponent(() => import('./components/documents/stock-movements').then((m) => m.StockMovements));
const FilesPanel = lazyComponent(() => import('./components/files/files-panel').then((m) => m.FilesPanel));

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
  start: (definition, record) => {
    const stored = record?.lines as DocumentLine[] | undefined;
    return stored && stored.length > 0 ? rowsOf(stored) : [emptyLine(definition.document)];
  },
  body: (value) => linesBody(value as LineRow[]),
  Editor: DocumentLinesEditor,
};

function DocumentSections({ definition, record }: RecordProps) {
  return (
    <>
      <DocumentLines definition={definition} record={record} />
      <RelatedDocuments definition={definition} record={record} />
      <DocumentMemos definition={definition} record={record} />
      {/* Paper only, and last: what the screen shows comes first in the page, for finding it by its text. */}
      <DocumentPrintout definition={definition} record={record} />
    </>
  );
}

/**
 * Whether the trash is open to a document: one that moved stock or money must be voided (an
 * order cancelled) first, as its lifecycle says; one not yet sent is only this device's.
 */
function deletable(definition: ResourceDefinition, record: ApiRecord): boolean {
  if (!definition.document || isClientKey(record.id)) return true;
  return trashableIn(definition.document.lifecycle, String(record.status ?? ''));
}

/** A document created on this device has no number until it syncs. */
function DocumentCell({ name, record, text }: CellProps) {
  // A record still on this device has its number only when it took one of the device's blocks.
  return <>{isClientKey(record.id) && name === 'number' && !record.number ? 'Number assigned on sync' : text}</>;
}

slots.register({ kind: 'document' }, 'create', DocumentCreateScreen);
slots.register({ kind: 'document' }, 'form.section', documentLines);
// A receive of a transfer also says what became of what did not arrive, sent with its lines.
for (const receives of registry.filter(countsOnArrival))
  slots.register({ resource: receives.name }, 'form.section', receiveSection(documentLines));
slots.register({ kind: 'document' }, 'list.cell', DocumentCell);
slots.register({ kind: 'document' }, 'view.badge', StatusBadge);
slots.register({ kind: 'document' }, 'view.actions', DocumentActions);
slots.register({ kind: 'document' }, 'view.deletable', deletable);
slots.register({ kind: 'document' }, 'view.sections', DocumentSections);
// On paper a document is its printed copy (with its sections), on the paper chosen as it prints.
slots.register({ kind: 'document' }, 'view.print', DocumentPrintButtons);

// Stock counts: their sheet (counting, the lines, posting) first, above the details — on a phone
// the counter should not scroll past them to count — and no document lines under them.

function CountSections({ definition, record }: RecordProps) {
  return (
    <>
      <RelatedDocuments definition={definition} record={record} />
      <DocumentMemos definition={definition} record={record} />
    </>
  );
}

slots.register({ resource: 'stock-counts' }, 'view.lead', StockCountSheet);
slots.register({ resource: 'stock-counts' }, 'view.sections', CountSections);
// A count prints its sheet as the screen shows it, with no printed copy of its own: on any paper.
slots.register({ resource: 'stock-counts' }, 'view.print', PrintButton);

// Payments: made of tenders (cash, GCash, a check …), asked for in their form and shown among
// their details; their list takes a period's tenders away for reconciliation.

const paymentTenders = loadAhead(() => import('./components/documents/payment-tenders'));
const TendersEditor = lazyComponent<ComponentProps<FormSection['Editor']>>(() => paymentTenders().then((m) => m.TendersEditor));
const PaymentTenderDetails = lazyComponent<RecordProps>(() => paymentTenders().then((m) => m.PaymentTenderDetails));
const TendersExport = lazyComponent<ScreenProps>(() => paymentTenders().then((m) => m.TendersExport));

/** A payment's tenders in its form, when it is made (they never change after); the first starts with the balance. */
const tenders: FormSection = {
  name: 'tenders',
  holds: (_definition, editing) => !editing,
  start: (_definition, record) => (Array.isArray(record?.tenders) ? tenderRowsOf(record.tenders) : [emptyTender()]),
  body: (value) => tendersBody(value as TenderRow[]),
  fields: (value) => paymentFieldsOf(value as TenderRow[]),
  check: async (sent) => (await paymentTenders()).tenderProblems(sent),
  Editor: TendersEditor,
};

for (const payments of registry.filter((definition) => paidInTenders(definition))) {
  slots.register({ resource: payments.name }, 'form.section', tenders);
  slots.register({ resource: payments.name }, 'view.details', PaymentTenderDetails);
  slots.register({ resource: payments.name }, 'list.actions', TendersExport);
}

// A return takes goods back from its sale's lines, and says how the customer is paid back.
const ReturnLinesEditor = lazyComponent<ComponentProps<FormSection['Editor']>>(() =>
  import('./components/documents/return-lines-editor').then((m) => m.ReturnLinesEditor),
);
for (const returns of registry.filter(returnsGoods)) {
  slots.register({ resource: returns.name }, 'form.section', returnSection(documentLines, ReturnLinesEditor));
  // A refund's tenders, as a payment's.
  slots.register({ resource: returns.name }, 'view.details', PaymentTenderDetails);
}

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

/** A record's link to its assignment screen `to`, shown while the record is on the server and may be updated. */
const assignmentLink = (to: '/roles/$id/assign-permissions' | '/users/$id/assign-roles', Icon: LucideIcon, label: string) =>
  function AssignmentLink({ record, allowed }: ActionProps) {
    if (record.deleted_at || isClientKey(record.id) || !allowed('update')) return null;
    return (
      <Button asChild variant="outline">
        <Link to={to} params={{ id: String(record.id) }}>
          <Icon aria-hidden /> {label}
        </Link>
      </Button>
    );
  };

const AssignPermissionsLink = assignmentLink('/roles/$id/assign-permissions', ShieldCheck, 'Assign Permissions');
const AssignRolesLink = assignmentLink('/users/$id/assign-roles', Users, 'Assign Roles');

/** A role's permissions, as the server lists them with it (a role created on this device has none yet). */
function RolePermissions({ record }: RecordProps) {
  return 'permission_names' in record ? <DetailRow label="Permissions" value={names(record.permission_names)} /> : null;
}

function UserRoles({ record }: RecordProps) {
  return 'role_names' in record ? <DetailRow label="Roles" value={names(record.role_names)} /> : null;
}

function UserDetails({ definition, record }: RecordProps) {
  return (
    <>
      <UserRoles definition={definition} record={record} />
      <UserPlacesDetails definition={definition} record={record} />
    </>
  );
}

// Users: their places (domain/places.ts) in their form, edited beside the rest and sent with it.

const UserPlacesEditor = lazyComponent(() => import('./features/users/user-places-editor').then((m) => m.UserPlacesEditor));

const userPlaces: FormSection = {
  name: 'places',
  holds: () => true,
  start: (_definition, record) => startingPlaces(record),
  body: (value) => placesBody(value as UserPlaces | null),
  Editor: UserPlacesEditor,
};

slots.register({ resource: 'roles' }, 'view.actions', AssignPermissionsLink);
slots.register({ resource: 'roles' }, 'view.details', RolePermissions);
slots.register({ resource: 'users' }, 'view.actions', AssignRolesLink);
slots.register({ resource: 'users' }, 'view.details', UserDetails);
slots.register({ resource: 'users' }, 'form.section', userPlaces);

// Contacts lead to their statement of account, for those who read statements.
slots.register({ resource: 'contacts' }, 'view.actions', StatementLink);
