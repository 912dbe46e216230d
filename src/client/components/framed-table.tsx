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
