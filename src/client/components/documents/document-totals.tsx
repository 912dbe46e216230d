import { formatPesos } from '../../../domain/money';
import { cn } from '../../lib/utils';
import { totalsRows } from './printed-figures';

/**
 * A priced document's totals block (`totalsRows`), with two decimals on screen as on paper
 * (₱1,075.20); on paper the amount due is in capitals.
 */
export function DocumentTotals({
  record,
  totalLabel,
  paper = false,
  className,
}: {
  record: Record<string, unknown>;
  /** What the total is called (printed-figures.ts `totalLabelOf`): the amount due unless told. */
  totalLabel?: string;
  paper?: boolean;
  className?: string;
}) {
  const rows = totalsRows(record, totalLabel);
  if (rows.length === 0) return null;
  // On paper, plain boxes: the screen's own terms are found by their <dt>s, and the copy is never found on screen.
  const [List, Term, Value] = paper ? (['div', 'span', 'span'] as const) : (['dl', 'dt', 'dd'] as const);
  return (
    <List className={cn('grid grid-cols-[1fr_auto] gap-x-4 tabular-nums', paper ? 'gap-y-0' : 'gap-y-0.5 text-sm', className)}>
      {rows.map((row) => (
        <div key={row.key} className="contents">
          {/* A rule across both columns above a group: the sales and VAT, the amount due. */}
          {row.opensGroup && <div aria-hidden className={cn('col-span-2 my-1 border-t', paper && 'border-black')} />}
          <Term className={cn(row.total ? 'font-bold' : !paper && 'text-muted-foreground', paper && row.total && 'uppercase')}>
            {row.label}
          </Term>
          <Value className={cn('text-right', row.total && 'font-bold')} data-testid={!paper && row.total ? 'document-total' : undefined}>
            {formatPesos(row.value)}
          </Value>
        </div>
      ))}
    </List>
  );
}
