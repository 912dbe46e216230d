import { SlidersHorizontal } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../ui/button';
import { deferred } from '../ui/deferred';
import type { AdvancedSearchProps } from './advanced-search-form';

const AdvancedSearchForm = deferred<AdvancedSearchProps>(
  () => import('./advanced-search-form').then(({ AdvancedSearchForm }) => AdvancedSearchForm),
  ({ open }) => open,
);

/** "Advance Search {plural}": the button, and the dialog it opens (advanced-search-form.tsx, loaded when first opened). */
export function AdvancedSearchDialog({ definition, state, onSearch }: Omit<AdvancedSearchProps, 'open' | 'onOpenChange'>) {
  const [open, setOpen] = useState(false);
  const [openings, setOpenings] = useState(0);
  return (
    <>
      <Button
        variant="outline"
        aria-haspopup="dialog"
        onClick={() => {
          setOpenings(openings + 1);
          setOpen(true);
        }}
      >
        <SlidersHorizontal aria-hidden /> Advance Search {definition.plural}
      </Button>
      <AdvancedSearchForm key={openings} definition={definition} state={state} onSearch={onSearch} open={open} onOpenChange={setOpen} />
    </>
  );
}
