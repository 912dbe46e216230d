import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Search } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { PagedTable } from '../../components/crud/newer-older-pager';
import { VIEW_ACTIVITY_PERMISSION } from '../../../domain/permissions';
import { findResource, getResource, registry } from '../../../domain/resources/registry';
import { actionWords, actorName, changeLines, entryNote, type ActivityPage } from '../../components/activity/activity-entry';
import { ReferencePicker } from '../../components/crud/reference-picker';
import { NotFoundScreen } from '../../components/layout/not-found-screen';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { ProgressBar } from '../../components/ui/progress-bar';
import { ChoiceSelect } from '../../components/choices';
import { LabelledField } from '../../components/labelled-field';
import { TableCell, TableHead, TableRow } from '../../components/ui/table';
import { api, describeError } from '../../lib/api';
import { formatTimestamp } from '../../lib/format';
import { useActiveBusinessId, useCan } from '../../lib/session';
import type { ActivitySearch } from './activity-search';
import { ProblemAlert } from '../../components/problem-alert';

const PER_PAGE = 25;

/** `/activity`: the business's activity log, searchable by resource, record, user and day (Manila). */
export function ActivityScreen() {
  const allowed = useCan(VIEW_ACTIVITY_PERMISSION);
  if (!allowed) return <NotFoundScreen what="page" />;
  return <ActivityLog />;
}

function ActivityLog() {
  const businessId = useActiveBusinessId();
  const search = useSearch({ strict: false }) as ActivitySearch;
  const navigate = useNavigate();
  const page = search.page ?? 1;
  const log = useQuery({
    queryKey: [businessId, 'activity', 'search', search],
    queryFn: ({ signal }) =>
      api<ActivityPage>('GET', '/api/activity', {
        query: { ...search, page, per_page: PER_PAGE },
        signal,
      }),
  });
  const go = (next: ActivitySearch) => void navigate({ to: '/activity', search: next });

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Activity</h1>
      <Filters key={JSON.stringify(search)} search={search} onSearch={(next) => go({ ...next, page: undefined })} />
      <ProgressBar active={log.isFetching} />
      <ProblemAlert problem={log.error ? describeError(log.error) : null} />
      <PagedTable
        answer={log.data}
        head={
          <>
            <TableHead>When</TableHead>
            <TableHead>Who</TableHead>
            <TableHead>Record</TableHead>
            <TableHead>What</TableHead>
            <TableHead>Changes</TableHead>
          </>
        }
        row={(entry) => {
          const definition = findResource(entry.resource);
          const note = entryNote(entry);
          return (
            <TableRow key={entry.id}>
              <TableCell className="whitespace-nowrap">
                <time dateTime={entry.happened_at}>{formatTimestamp(entry.happened_at)}</time>
                {entry.made_offline && entry.made_at && (
                  <div className="text-xs text-muted-foreground">Made offline at {formatTimestamp(entry.made_at)}</div>
                )}
              </TableCell>
              <TableCell>{actorName(entry)}</TableCell>
              <TableCell className="whitespace-nowrap">
                {definition?.singular ?? entry.resource}{' '}
                {entry.action === 'force-deleted' ? (
                  `#${entry.record_id}`
                ) : (
                  <Link
                    to="/$resource/$id"
                    params={{ resource: entry.resource, id: String(entry.record_id) }}
                    className="text-primary underline-offset-4 hover:underline"
                  >
                    #{entry.record_id}
                  </Link>
                )}
              </TableCell>
              <TableCell>
                {actionWords(entry)}
                {note && <div className="text-xs text-muted-foreground">{note}</div>}
              </TableCell>
              <TableCell className="max-w-md min-w-64 text-sm break-words whitespace-normal">
                {changeLines(definition, entry)
                  .map((line) => `${line.label}: ${line.from === null ? line.to : `${line.from} → ${line.to}`}`)
                  .join('; ') || '—'}
              </TableCell>
            </TableRow>
          );
        }}
        columns={5}
        empty="No activity matches."
        onPage={(next) => go({ ...search, page: next })}
      />
    </div>
  );
}

const resourceChoices = [...registry]
  .sort((a, b) => a.plural.localeCompare(b.plural))
  .map((definition) => ({ value: definition.name, label: definition.plural }));

/** A record's or a user's ID typed in: digits only, kept without spaces. */
function IdInput({
  id,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  placeholder?: string;
  value: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <Input
      id={id}
      inputMode="numeric"
      pattern="\d*"
      placeholder={placeholder}
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value.trim())}
    />
  );
}

function Filters({ search, onSearch }: { search: ActivitySearch; onSearch: (search: ActivitySearch) => void }) {
  const canPickUsers = useCan('view-users');
  const [draft, setDraft] = useState<ActivitySearch>(search);
  const set = (name: keyof ActivitySearch, value: string) => setDraft({ ...draft, [name]: value || undefined });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft);
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Filter the activity"
      className="grid gap-3 rounded-lg border bg-card p-4 sm:grid-cols-3 lg:grid-cols-6"
    >
      <LabelledField id="activity-resource" label="Resource">
        <ChoiceSelect
          id="activity-resource"
          any
          value={draft.resource ?? ''}
          onValueChange={(next) => set('resource', next)}
          choices={resourceChoices}
        />
      </LabelledField>
      <LabelledField id="activity-record" label="Record ID">
        <IdInput id="activity-record" value={draft.record_id} onChange={(next) => set('record_id', next)} />
      </LabelledField>
      <LabelledField id="activity-user" label="User">
        {canPickUsers ? (
          <ReferencePicker
            id="activity-user"
            target={getResource('users')}
            value={draft.user_id ? Number(draft.user_id) : null}
            onChange={(picked) => set('user_id', picked === null ? '' : String(picked))}
          />
        ) : (
          <IdInput id="activity-user" placeholder="User ID" value={draft.user_id} onChange={(next) => set('user_id', next)} />
        )}
      </LabelledField>
      <LabelledField id="activity-from" label="From">
        <Input id="activity-from" type="date" value={draft.from ?? ''} onChange={(event) => set('from', event.target.value)} />
      </LabelledField>
      <LabelledField id="activity-to" label="To">
        <Input id="activity-to" type="date" value={draft.to ?? ''} onChange={(event) => set('to', event.target.value)} />
      </LabelledField>
      <div className="flex items-end">
        <Button type="submit" className="w-full">
          <Search aria-hidden /> Search
        </Button>
      </div>
    </form>
  );
}
