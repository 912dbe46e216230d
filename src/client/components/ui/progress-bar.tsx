import * as React from 'react';

import { cn } from '@/client/lib/utils';

/**
 * A thin full-width "loading" bar: striped and moving while `active`, an empty spacer of the same
 * height otherwise, so the content below does not jump. E.g. `<ProgressBar active={query.isFetching} />`.
 */
function ProgressBar({
  active,
  className,
  'aria-label': ariaLabel = 'Loading',
  ...props
}: Omit<React.ComponentProps<'div'>, 'children'> & {
  active: boolean;
}) {
  if (!active) {
    return <div data-slot="progress-bar" data-state="idle" aria-hidden="true" className={cn('h-1 w-full', className)} {...props} />;
  }
  return (
    <div
      data-slot="progress-bar"
      data-state="loading"
      role="progressbar"
      aria-label={ariaLabel}
      aria-busy="true"
      className={cn('h-1 w-full progress-striped', className)}
      {...props}
    />
  );
}

export { ProgressBar };
