import type { ReactElement } from 'react';
import { Tooltip, TooltipContent, TooltipTrigger } from '../ui/tooltip';

/** A rail link's whole name beside it, on hover or focus (sidebar.tsx loads it when a pointer is over the rail). */
export function RailTooltip({ label, children }: { label: string; children: ReactElement }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent side="right">{label}</TooltipContent>
    </Tooltip>
  );
}
