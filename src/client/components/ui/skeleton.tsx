import * as React from 'react';

import { cn } from '@/client/lib/utils';

/** A placeholder shape while data loads; it is hidden from screen readers, so announce loading elsewhere (e.g. `Spinner`). */
function Skeleton({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn('animate-pulse rounded-md bg-accent motion-reduce:animate-none', className)}
      {...props}
    />
  );
}

export { Skeleton };
