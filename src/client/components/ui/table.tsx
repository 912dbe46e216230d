import * as React from 'react';

import { slotted } from '@/client/components/ui/slotted';
import { cn } from '@/client/lib/utils';

/** True while the element is narrower than its content, i.e. while it scrolls sideways. */
function useOverflowsX(ref: React.RefObject<HTMLElement | null>) {
  const [overflows, setOverflows] = React.useState(false);
  React.useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth);
    // The observer tells each element's first size too, once the frame is laid out: measured here,
    // in the effect, the new table's layout was forced before its first paint (~30 ms of an
    // offline start, bench/not-met.md).
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

/**
 * A table in a horizontally scrollable container; the container joins the tab order only while it
 * scrolls, so keyboard users can scroll it. Stripe rows with
 * `<TableBody className="[&>tr:nth-child(even)]:bg-muted/40">`.
 */
function Table({ className, ...props }: React.ComponentProps<'table'>) {
  const containerRef = React.useRef<HTMLDivElement>(null);
  const scrollable = useOverflowsX(containerRef);
  return (
    <div
      ref={containerRef}
      data-slot="table-container"
      tabIndex={scrollable ? 0 : undefined}
      className="relative w-full overflow-x-auto rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <table data-slot="table" className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

const TableHeader = slotted('thead', 'table-header', '[&_tr]:border-b');
const TableBody = slotted('tbody', 'table-body', '[&_tr:last-child]:border-0');
const TableFooter = slotted('tfoot', 'table-footer', 'border-t bg-muted/50 font-medium [&>tr]:last:border-b-0');
const TableRow = slotted('tr', 'table-row', 'border-b transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted');
const TableHead = slotted(
  'th',
  'table-head',
  'h-10 px-2 text-left align-middle font-medium whitespace-nowrap text-foreground [&:has([role=checkbox])]:pr-0 [&>[role=checkbox]]:translate-y-[2px]',
);
const TableCell = slotted(
  'td',
  'table-cell',
  'p-2 align-middle whitespace-nowrap [&:has([role=checkbox])]:pr-0 [&>[role=checkbox]]:translate-y-[2px]',
);
const TableCaption = slotted('caption', 'table-caption', 'mt-4 text-sm text-muted-foreground');

export { Table, TableBody, TableCaption, TableCell, TableFooter, TableHead, TableHeader, TableRow };
