import type { ReactNode } from 'react';
import { cn } from '../lib/utils';
import { Table, TableCell, TableRow } from './ui/table';

/** A table in a rounded border, which scrolls sideways when the screen is narrower than the table. */
export function FramedTable({ children }: { children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border">
      <Table>{children}</Table>
    </div>
  );
}

/** The one row of a table with nothing to show, saying so across all `colSpan` columns. */
export function EmptyTableRow({ colSpan, className, children }: { colSpan: number; className?: string; children: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} className={cn(className, 'text-center text-muted-foreground')}>
        {children}
      </TableCell>
    </TableRow>
  );
}

/**
 * A list a phone reads as a card per row and a wider screen (from `md`) as the whole table:
 * `cards` are the list's items, `empty` what it says while it has none (nothing once it has some);
 * `table` is the table's header, body and footer.
 */
export function CardsOrTable({ label, empty, cards, table }: { label: string; empty: ReactNode; cards: ReactNode; table: ReactNode }) {
  return (
    <>
      <ul className="space-y-2 md:hidden" aria-label={label}>
        {empty && <li className="py-6 text-center text-muted-foreground">{empty}</li>}
        {cards}
      </ul>
      <div className="hidden md:block">
        <FramedTable>{table}</FramedTable>
      </div>
    </>
  );
}
