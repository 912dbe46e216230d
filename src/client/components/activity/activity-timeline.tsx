import { useQuery, useQueryClient } from '@tanstack/react-query';
import { WifiOff } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import type { ActivityEntry } from '../../../domain/activity';
import type { ResourceDefinition } from '../../../domain/resource';
import { describeError } from '../../lib/api';
import { formatTimestamp } from '../../lib/format';
import { onChangeSent } from '../../lib/outbox-events';
import { useActiveBusinessId } from '../../lib/session';
import { Button } from '../ui/button';
import { Skeleton } from '../ui/skeleton';
import { actionWords, actorName, changeLines, entryNote, recordActivityQuery } from './activity-entry';

/**
 * A record's history under its view screen: who did what and when, newest first, with the
 * fields each change touched ("Price: ₱12.50 → ₱13.75"). "Show older" adds the next page below.
 * It reloads whenever a change to the resource reaches the server, from this tab or another.
 */
export function ActivityTimeline({ definition, recordId }: { definition: ResourceDefinition; recordId: number }) {
  const businessId = useActiveBusinessId();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [pages, setPages] = useState(1);
  const last = useQuery(recordActivityQuery(businessId, definition.name, recordId, pages));

  useEffect(
    () =>
      onChangeSent((entry) => {
        if (entry.businessId !== businessId || entry.resource !== definition.name) return;
        void queryClient.invalidateQueries({ queryKey: [businessId, 'activity', definition.name, recordId] });
      }),
    [businessId, definition.name, queryClient, recordId],
  );

  const meta = last.data?.meta;
  return (
    <section aria-labelledby={headingId} className="space-y-3 print:hidden">
      <h2 id={headingId} className="text-lg font-semibold">
        History
      </h2>
      <ol className="space-y-3">
        {Array.from({ length: pages }, (_, index) => (
          <TimelinePage key={index + 1} definition={definition} recordId={recordId} page={index + 1} />
        ))}
      </ol>
      {last.error && (
        <p role="alert" className="text-sm text-destructive">
          {describeError(last.error)}
        </p>
      )}
      {meta && meta.current_page < meta.last_page && (
        <Button variant="outline" onClick={() => setPages(pages + 1)}>
          Show older
        </Button>
      )}
    </section>
  );
}

function TimelinePage({ definition, recordId, page }: { definition: ResourceDefinition; recordId: number; page: number }) {
  const businessId = useActiveBusinessId();
  const { data, isPending } = useQuery(recordActivityQuery(businessId, definition.name, recordId, page));
  if (isPending) {
    return (
      <li aria-hidden>
        <Skeleton className="h-16 w-full" />
      </li>
    );
  }
  if (page === 1 && data?.data.length === 0) return <li className="text-sm text-muted-foreground">No history yet.</li>;
  return data?.data.map((entry) => <TimelineEntry key={entry.id} definition={definition} entry={entry} />);
}

function TimelineEntry({ definition, entry }: { definition: ResourceDefinition; entry: ActivityEntry }) {
  const note = entryNote(entry);
  const lines = changeLines(definition, entry);
  return (
    <li className="rounded-lg border bg-card px-4 py-3">
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-medium">{actionWords(entry)}</span>
        <span className="text-sm text-muted-foreground">
          by {actorName(entry)} · <time dateTime={entry.happened_at}>{formatTimestamp(entry.happened_at)}</time>
        </span>
      </p>
      {entry.made_offline && entry.made_at && (
        <p className="mt-1 flex items-center gap-1 text-sm text-muted-foreground">
          <WifiOff aria-hidden className="size-4" /> Made offline at <time dateTime={entry.made_at}>{formatTimestamp(entry.made_at)}</time>
        </p>
      )}
      {note && <p className="mt-1 text-sm">{note}</p>}
      {lines.length > 0 && (
        <ul className="mt-2 space-y-0.5 text-sm">
          {lines.map((line) => (
            <li key={line.name} className="break-words">
              <span className="text-muted-foreground">{line.label}:</span> {line.from === null ? line.to : `${line.from} → ${line.to}`}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
