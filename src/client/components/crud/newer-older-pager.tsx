import type { ListMeta } from '../../../domain/list-params';
import { Button } from '../ui/button';

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
