/** One button of the pager: a page number, or a gap shown as "...". */
export type PagerItem = number | 'gap';

/**
 * The pager's page numbers: up to 10 pages all show; beyond that, pages 1–7 then the last
 * two while the current page is at most 6; near the end 1, 2 then the last 8; otherwise 1, 2,
 * the current page ± 2, and the last two — gaps between runs shown as "...".
 */
export function pagerItems(current: number, lastPage: number): PagerItem[] {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);
  if (lastPage <= 10) return range(1, lastPage);
  let pages: number[];
  if (current <= 6) pages = [...range(1, 7), lastPage - 1, lastPage];
  else if (current >= lastPage - 5) pages = [1, 2, ...range(lastPage - 7, lastPage)];
  else pages = [1, 2, ...range(current - 2, current + 2), lastPage - 1, lastPage];
  const items: PagerItem[] = [];
  pages.forEach((page, index) => {
    if (index > 0 && page - pages[index - 1] > 1) items.push('gap');
    items.push(page);
  });
  return items;
}
