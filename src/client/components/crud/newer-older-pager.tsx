import type { ReactNode } from 'react';
import type { ListMeta } from '../../../domain/list-params';
import { EmptyTableRow, FramedTable } from '../framed-table';
import { Button } from '../ui/button';
import { TableBody, TableHeader, TableRow } from '../ui/table';

/** Pages of a history, newest first: Newer, where we are, Older. Nothing when it fits one page. */
export function NewerOlderPager({ meta, onPage }: { meta: ListMeta | undefined; onPage: (page: number) => void }) {
  if (!meta || meta.last_page <= 1) return null;
  const page = meta.current_page;
  return (
    <nav aria-label="Pages" className="flex items-center gap-2">
      <Button variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Newer
      </Button>
      <span className="text-sm text-muted-foreground">
        Page {page} of {meta.last_page}
      </span>
      <Button variant="outline" disabled={page >= meta.last_page} onClick={() => onPage(page + 1)}>
        Older
      </Button>
    </nav>
  );
}

/**
 * A page of a history in a framed table, Newer and Older under it: `head` is its header row's
 * cells, `row` a record's row; a page with none says `empty` across `columns` columns.
 */
export function PagedTable<Row>({
  answer,
  head,
  row,
  columns,
  empty,
  onPage,
}: {
  answer: { data: Row[]; meta: ListMeta } | undefined;
  head: ReactNode;
  row: (record: Row) => ReactNode;
  columns: number;
  empty: ReactNode;
  onPage: (page: number) => void;
}) {
  return (
    <>
      <FramedTable>
        <TableHeader>
          <TableRow>{head}</TableRow>
        </TableHeader>
        <TableBody>
          {answer?.data.map(row)}
          {answer?.data.length === 0 && (
            <EmptyTableRow colSpan={columns} className="py-6">
              {empty}
            </EmptyTableRow>
          )}
        </TableBody>
      </FramedTable>
      <NewerOlderPager meta={answer?.meta} onPage={onPage} />
    </>
  );
}
