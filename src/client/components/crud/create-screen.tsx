import { usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate, useParams, useRouter, useSearch } from '@tanstack/react-router';
import { referenceKey, writableFields, type ResourceDefinition } from '../../../domain/resource';
import { findResource } from '../../../domain/resources/registry';
import { placesQuery } from '../../lib/places';
import { recordQuery } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';
import { NotFoundScreen } from '../layout/not-found-screen';
import { ProgressBar } from '../ui/progress-bar';
import { initialValue } from './field-input';
import { RecordForm, startingValues } from './record-form';
import { ResourceBreadcrumb } from './resource-breadcrumb';
import { useScreenAccess } from './screen-access';
import { renderSlot } from './slots';

/** `/x/create` and `/x/create/{id}`: the resource's create screen, or the generic one. */
export function CreateScreen() {
  const { resource } = useParams({ strict: false }) as { resource?: string };
  const definition = findResource(resource ?? '');
  // Every form reads the user's places (record-form.tsx): they are asked for now, alongside the
  // code of a screen of the resource's own (a document's), rather than once that has loaded.
  usePrefetchQuery(placesQuery(useActiveBusinessId()));
  if (!definition || definition.readOnly) return <NotFoundScreen what="page" />;
  return renderSlot(definition, 'create', { key: definition.name }) ?? <CopyOrCreate key={definition.name} definition={definition} />;
}

/**
 * After saving, a create screen goes where `redirect_to` says (already resolved to a path of this
 * app by the route), else to the list. Within the app, so the success toast stays in sight.
 */
export function useAfterCreate(definition: ResourceDefinition): () => void {
  const { redirect_to: redirectTo } = useSearch({ strict: false }) as { redirect_to?: string };
  const navigate = useNavigate();
  const router = useRouter();
  return () => {
    if (redirectTo) router.history.push(redirectTo);
    else void navigate({ to: '/$resource', params: { resource: definition.name } });
  };
}

/** A create screen's breadcrumb and title. */
export function CreateHeading({ definition }: { definition: ResourceDefinition }) {
  return (
    <>
      <ResourceBreadcrumb definition={definition} current={`Create ${definition.singular}`} />
      <h1 className="text-2xl font-semibold tracking-tight">Create {definition.singular}</h1>
    </>
  );
}

/**
 * What a link starts the form with (`?values={"document_type":"bill","document_id":12}`), only
 * for fields the form takes, and the names its pickers show for the references among them
 * (`?names={"document_id":"B-…"}`): a memo written from its document's screen.
 */
function given(definition: ResourceDefinition, values?: Record<string, string | number>, names?: Record<string, string | number>) {
  const fields = new Map(writableFields(definition));
  const start = Object.entries(values ?? {})
    .filter(([name]) => fields.has(name))
    .map(([name, value]) => [name, initialValue(fields.get(name)!, value)] as const);
  return {
    values: Object.fromEntries(start),
    // As a record would carry them: the id, and beside it what it names.
    known: Object.fromEntries(
      start
        .filter(([name]) => names?.[name] !== undefined)
        .flatMap(([name, value]) => [
          [name, value],
          [referenceKey(name), { id: value, display: String(names![name]) }],
        ]),
    ),
  };
}

/** A new record, or one starting from a copy of record {id}; without create permission, back to the index. */
function CopyOrCreate({ definition }: { definition: ResourceDefinition }) {
  const { from } = useParams({ strict: false }) as { from?: string };
  const search = useSearch({ strict: false }) as { values?: Record<string, string | number>; names?: Record<string, string | number> };
  const start = given(definition, search.values, search.names);
  const businessId = useActiveBusinessId();
  const allowed = useScreenAccess(definition, 'create');
  const afterCreate = useAfterCreate(definition);
  const fromId = from && /^\d+$/.test(from) ? Number(from) : undefined;
  const source = useQuery({ ...recordQuery(businessId, definition, fromId ?? 0), enabled: fromId !== undefined });

  // A copy of each record, and each start a link gives (a memo of one document), has a draft of its own.
  const draftKey = `${definition.name}/create${fromId ? `/from/${fromId}` : ''}${search.values ? `?values=${JSON.stringify(search.values)}` : ''}`;

  if (!allowed('create')) return <Navigate to="/$resource" params={{ resource: definition.name }} replace />;
  if (fromId && !source.data && !source.error) return <ProgressBar active />;
  return (
    <div className="max-w-4xl space-y-4">
      <CreateHeading definition={definition} />
      {fromId && source.data && (
        <p className="text-sm text-muted-foreground">Starting from a copy of #{fromId}; unique fields are left blank.</p>
      )}
      <RecordForm
        key={fromId ?? 'new'}
        definition={definition}
        initial={{ ...startingValues(definition, source.data, true), ...start.values }}
        draftKey={draftKey}
        known={start.known}
        onSaved={afterCreate}
      />
    </div>
  );
}
