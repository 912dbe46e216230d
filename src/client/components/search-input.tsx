import { Search } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../lib/utils';
import { Input } from './ui/input';

/** A search box with its magnifier; `label` names it for screen readers. */
export function SearchInput({ label, className, ...props }: Omit<ComponentProps<typeof Input>, 'type'> & { label: string }) {
  return (
    <div className={cn('relative w-full', className)}>
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <Input type="search" aria-label={label} className="pl-9" {...props} />
    </div>
  );
}
