import * as React from 'react';
import { Loader2Icon } from 'lucide-react';

import { cn } from '@/client/lib/utils';

/** A small spinning icon announced to screen readers as `label` (a polite live region via `role="status"`). */
function Spinner({
  className,
  label = 'Loading…',
  ...props
}: Omit<React.ComponentProps<'span'>, 'children'> & {
  label?: string;
}) {
  return (
    <span data-slot="spinner" role="status" className={cn('inline-flex items-center justify-center', className)} {...props}>
      <Loader2Icon aria-hidden="true" className="size-4 animate-spin motion-reduce:[animation-duration:2.5s]" />
      <span className="sr-only">{label}</span>
    </span>
  );
}

export { Spinner };
