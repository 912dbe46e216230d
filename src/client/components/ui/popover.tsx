import * as React from 'react';
import { Popover as PopoverPrimitive } from 'radix-ui';

import { slotted } from '@/client/components/ui/slotted';

const Popover = slotted(PopoverPrimitive.Root, 'popover');
const PopoverTrigger = slotted(PopoverPrimitive.Trigger, 'popover-trigger');

const StyledPopoverContent = slotted(
  PopoverPrimitive.Content,
  'popover-content',
  'z-50 w-72 origin-(--radix-popover-content-transform-origin) rounded-md border bg-popover p-4 text-popover-foreground shadow-md outline-hidden data-[side=bottom]:slide-in-from-top-2 data-[side=left]:slide-in-from-right-2 data-[side=right]:slide-in-from-left-2 data-[side=top]:slide-in-from-bottom-2 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=closed]:zoom-out-95 data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95',
);

/** Renders `role="dialog"`: name it with `aria-label` (or `aria-labelledby` pointing at a heading inside). */
function PopoverContent({ align = 'center', sideOffset = 4, ...props }: React.ComponentProps<typeof PopoverPrimitive.Content>) {
  return (
    <PopoverPrimitive.Portal>
      <StyledPopoverContent align={align} sideOffset={sideOffset} {...props} />
    </PopoverPrimitive.Portal>
  );
}

const PopoverAnchor = slotted(PopoverPrimitive.Anchor, 'popover-anchor');

export { Popover, PopoverAnchor, PopoverContent, PopoverTrigger };
