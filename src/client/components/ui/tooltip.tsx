import * as React from 'react';
import { Tooltip as TooltipPrimitive } from 'radix-ui';

import { slotted } from '@/client/components/ui/slotted';

const InsideTooltipProvider = React.createContext(false);

/**
 * Mount once near the root so tooltips share one delay (moving between them skips it).
 * A `Tooltip` rendered without one still works: it brings its own.
 */
function TooltipProvider({ delayDuration = 200, ...props }: React.ComponentProps<typeof TooltipPrimitive.Provider>) {
  return (
    <InsideTooltipProvider.Provider value={true}>
      <TooltipPrimitive.Provider data-slot="tooltip-provider" delayDuration={delayDuration} {...props} />
    </InsideTooltipProvider.Provider>
  );
}

/** A hint for sighted users only: an icon button still needs its own `aria-label`. */
function Tooltip({ ...props }: React.ComponentProps<typeof TooltipPrimitive.Root>) {
  const root = <TooltipPrimitive.Root data-slot="tooltip" {...props} />;
  return React.useContext(InsideTooltipProvider) ? root : <TooltipProvider>{root}</TooltipProvider>;
}

const TooltipTrigger = slotted(TooltipPrimitive.Trigger, 'tooltip-trigger');

const StyledTooltipContent = slotted(
  TooltipPrimitive.Content,
  'tooltip-content',
  'z-50 w-fit origin-(--radix-tooltip-content-transform-origin) animate-in rounded-md bg-foreground px-3 py-1.5 text-xs text-balance text-background fade-in-0 zoom-in-95 data-[side=bottom]:slide-in-from-top-2 data-[side=left]:slide-in-from-right-2 data-[side=right]:slide-in-from-left-2 data-[side=top]:slide-in-from-bottom-2 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=closed]:zoom-out-95',
);

function TooltipContent({ sideOffset = 4, children, ...props }: React.ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <StyledTooltipContent sideOffset={sideOffset} {...props}>
        {children}
        <TooltipPrimitive.Arrow className="z-50 size-2.5 translate-y-[calc(-50%_-_2px)] rotate-45 rounded-[2px] bg-foreground fill-foreground" />
      </StyledTooltipContent>
    </TooltipPrimitive.Portal>
  );
}

export { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger };
