import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from 'lucide-react';
import { PAGE_SIZES, type ListMeta } from '../../../domain/list-params';
import { pagerItems } from '../../lib/pager';
import { fieldCaption, pagerSort, sortWords, type Order, type Sort } from '../../lib/sorting';
import { Button } from '../ui/button';
import { Label } from '../ui/label';
import { NativeSelect } from '../ui/native-select';

/**
 * The list's pager: Previous, First, page numbers with "..." gaps, Last, Next; the sort toggle
 * (Newest/Oldest by id, Decending/Ascending otherwise) beside the sort field's name; and the
 * Number of Items selector.
 */
export function Pager({
  meta,
  sort,
  onPage,
  onSort,
  onPageSize,
}: {
  meta: ListMeta;
  sort: Sort;
  onPage: (page: number) => void;
  onSort: (sort: Sort) => void;
  onPageSize: (size: number) => void;
}) {
  const { current_page: current, last_page: last } = meta;
  const words = sortWords(sort.field);
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <nav aria-label="Pages" className="flex flex-wrap items-center gap-1">
        <Button variant="outline" size="sm" className="h-11" disabled={current <= 1} onClick={() => onPage(current - 1)}>
          <ChevronLeft aria-hidden /> Previous
        </Button>
        <Button variant="outline" size="sm" className="h-11" disabled={current <= 1} onClick={() => onPage(1)}>
          <ChevronFirst aria-hidden /> First
        </Button>
        {pagerItems(current, last).map((item, index) =>
          item === 'gap' ? (
            <span key={`gap-${index}`} className="px-1 text-muted-foreground" aria-hidden>
              ...
            </span>
          ) : (
            <Button
              key={item}
              variant={item === current ? 'default' : 'outline'}
              size="sm"
              className="h-11 min-w-11"
              aria-current={item === current ? 'page' : undefined}
              aria-label={`Page ${item}`}
              onClick={() => item !== current && onPage(item)}
            >
              {item}
            </Button>
          ),
        )}
        <Button variant="outline" size="sm" className="h-11" disabled={current >= last} onClick={() => onPage(last)}>
          Last <ChevronLast aria-hidden />
        </Button>
        <Button variant="outline" size="sm" className="h-11" disabled={current >= last} onClick={() => onPage(current + 1)}>
          Next <ChevronRight aria-hidden />
        </Button>
      </nav>
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex items-center gap-2" role="group" aria-label={`Sort by ${fieldCaption(sort.field)}`}>
          <span className="text-sm font-medium">{fieldCaption(sort.field)}</span>
          {(['desc', 'asc'] as Order[]).map((order) => (
            <Button
              key={order}
              variant={sort.order === order ? 'default' : 'outline'}
              size="sm"
              className="h-11"
              aria-pressed={sort.order === order}
              onClick={() => onSort(pagerSort(sort, order))}
            >
              {words[order]}
            </Button>
          ))}
        </div>
        <div className="flex items-center gap-2">
          <Label htmlFor="per-page">Number of Items</Label>
          <PageSizeSelect id="per-page" value={meta.per_page} onChange={onPageSize} />
        </div>
      </div>
    </div>
  );
}

/** How many rows a page holds: one of the sizes every list offers. */
export function PageSizeSelect({ id, value, onChange }: { id: string; value: number; onChange: (size: number) => void }) {
  return (
    <NativeSelect id={id} className="w-20" value={String(value)} onChange={(event) => onChange(Number(event.target.value))}>
      {PAGE_SIZES.map((size) => (
        <option key={size} value={String(size)}>
          {size}
        </option>
      ))}
    </NativeSelect>
  );
}
