import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { PagedTable } from '../crud/newer-older-pager';
import type { ListMeta } from '../../../domain/list-params';
import { api } from '../../lib/api';
import { formatDate, formatTimestamp } from '../../lib/format';
import { useActiveBusinessId } from '../../lib/session';
import { HeadedSection } from '../headed-section';
import { TableCell, TableHead, TableRow } from '../ui/table';

interface Movement {
  id: number;
  quantity: number;
  in_transit: number;
  quarantined: number;
  document_number: string;
  document_id: number;
  document_resource: string | null;
  document_date: string;
  moved_at: string;
}

/** The movements that make up a stock balance, latest first, each linking to its document; the quarantine's only where one moved it. */
export function StockMovements({ stockId, unit }: { stockId: number; unit: string | null }) {
  const businessId = useActiveBusinessId();
  const [page, setPage] = useState(1);
  const movements = useQuery({
    queryKey: [businessId, 'stocks', 'movements', stockId, page],
    queryFn: ({ signal }) =>
      api<{ data: Movement[]; meta: ListMeta }>('GET', `/api/stocks/${stockId}/movements`, { query: { page, per_page: 15 }, signal }),
  });
  const signed = (value: number) => `${value > 0 ? '+' : ''}${value}${unit ? ` ${unit}` : ''}`;
  const quarantine = movements.data?.data.some((movement) => movement.quarantined !== 0) ?? false;
  return (
    <HeadedSection headingId="movements-heading" title="Movements" className="space-y-2">
      <PagedTable
        answer={movements.data}
        head={
          <>
            <TableHead>Date</TableHead>
            <TableHead>Document</TableHead>
            <TableHead className="text-right">On hand</TableHead>
            <TableHead className="text-right">In transit</TableHead>
            {quarantine && <TableHead className="text-right">Quarantined</TableHead>}
          </>
        }
        row={(movement) => (
          <TableRow key={movement.id}>
            <TableCell className="whitespace-nowrap" title={`Recorded ${formatTimestamp(movement.moved_at)}`}>
              {formatDate(movement.document_date)}
            </TableCell>
            <TableCell>
              {movement.document_resource ? (
                <Link
                  to="/$resource/$id"
                  params={{ resource: movement.document_resource, id: String(movement.document_id) }}
                  className="text-primary underline-offset-4 hover:underline"
                >
                  {movement.document_number}
                </Link>
              ) : (
                movement.document_number
              )}
            </TableCell>
            <TableCell className="text-right tabular-nums">{movement.quantity ? signed(movement.quantity) : '—'}</TableCell>
            <TableCell className="text-right tabular-nums">{movement.in_transit ? signed(movement.in_transit) : '—'}</TableCell>
            {quarantine && (
              <TableCell className="text-right tabular-nums">{movement.quarantined ? signed(movement.quarantined) : '—'}</TableCell>
            )}
          </TableRow>
        )}
        columns={4}
        empty="No movements yet."
        onPage={setPage}
      />
    </HeadedSection>
  );
}
