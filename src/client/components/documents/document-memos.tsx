import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { todayInManila } from '../../../domain/documents';
import { permissionName } from '../../../domain/permissions';
import type { ResourceDefinition } from '../../../domain/resource';
import { getResource } from '../../../domain/resources/registry';
import { displayValue } from '../../lib/format';
import { isClientKey } from '../../lib/outbox';
import { listQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, useCan } from '../../lib/session';
import { Button } from '../ui/button';

const SHOWN = 25;

/**
 * The memos written about a document, newest first, with **Add memo** for those who may write
 * one. Saving the memo comes back to the document. Nothing for a document not yet sent to the
 * server, nor for users who may not see memos.
 */
export function DocumentMemos({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const businessId = useActiveBusinessId();
  const memos = getResource('document-memoranda');
  const canView = useCan(permissionName('view', memos.permission));
  const canCreate = useCan(permissionName('create', memos.permission));
  const type = definition.document?.type;
  const saved = type !== undefined && !isClientKey(record.id);
  const ofDocument = { document_type: type ?? '', document_id: String(record.id) };
  const list = useQuery({
    ...listQuery(businessId, memos, { ...ofDocument, order_by_field_name: 'date', per_page: SHOWN }),
    enabled: canView && saved,
  });
  if (!canView || !saved) return null;
  const rows = list.data?.data ?? [];
  const total = list.data?.meta.total ?? 0;
  return (
    <section aria-labelledby="memos-heading" className="space-y-2 print:hidden">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="memos-heading" className="text-lg font-semibold">
          {memos.plural}
        </h2>
        {canCreate && (
          <Button asChild variant="outline" size="sm" className="ml-auto">
            <Link
              to="/$resource/create"
              params={{ resource: memos.name }}
              search={{
                redirect_to: `/${definition.name}/${String(record.id)}`,
                values: { document_type: type!, document_id: Number(record.id), date: todayInManila() },
                names: { document_id: String(record.number ?? record.id) },
              }}
            >
              <Plus aria-hidden="true" /> Add memo
            </Link>
          </Button>
        )}
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">{list.isPending ? 'Loading…' : 'No memos about this document yet.'}</p>
      ) : (
        <ul className="divide-y rounded-lg border bg-card">
          {rows.map((memo) => (
            <li key={String(memo.id)} className="space-y-1 p-3">
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <Link
                  to="/$resource/$id"
                  params={{ resource: memos.name, id: String(memo.id) }}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  {String(memo.subject)}
                </Link>
                <span className="text-sm text-muted-foreground">
                  {displayValue('date', memos.fields.date, memo)} · {displayValue('author_id', memos.fields.author_id, memo)}
                </span>
              </div>
              <p className="text-sm whitespace-pre-line">{String(memo.body)}</p>
            </li>
          ))}
        </ul>
      )}
      {total > rows.length && (
        <Link
          to="/$resource"
          params={{ resource: memos.name }}
          search={ofDocument}
          className="text-sm text-primary underline-offset-4 hover:underline"
        >
          All {total} memos about this document
        </Link>
      )}
    </section>
  );
}
