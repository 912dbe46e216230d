import * as React from 'react';
import { Dialog as SheetPrimitive } from 'radix-ui';

import { CornerClose, dialogOverlayClasses } from '@/client/components/ui/dialog';
import { slotted } from '@/client/components/ui/slotted';
import { cn } from '@/client/lib/utils';

const Sheet = slotted(SheetPrimitive.Root, 'sheet');
const SheetTrigger = slotted(SheetPrimitive.Trigger, 'sheet-trigger');
const SheetClose = slotted(SheetPrimitive.Close, 'sheet-close');
const SheetPortal = slotted(SheetPrimitive.Portal, 'sheet-portal');
const SheetOverlay = slotted(SheetPrimitive.Overlay, 'sheet-overlay', dialogOverlayClasses);

/** A side panel: `<SheetContent side="left">` for navigation on narrow screens. Needs a `SheetTitle`, like any dialog. */
function SheetContent({
  className,
  children,
  side = 'right',
  showCloseButton = true,
  ...props
}: React.ComponentProps<typeof SheetPrimitive.Content> & {
  side?: 'top' | 'right' | 'bottom' | 'left';
  showCloseButton?: boolean;
}) {
  return (
    <SheetPortal>
      <SheetOverlay />
      <SheetPrimitive.Content
        data-slot="sheet-content"
        data-side={side}
        className={cn(
          'fixed z-50 flex flex-col gap-4 overflow-y-auto bg-background shadow-lg transition ease-in-out data-[state=closed]:animate-out data-[state=closed]:duration-300 data-[state=open]:animate-in data-[state=open]:duration-500',
          side === 'right' &&
            'inset-y-0 right-0 h-full w-3/4 border-l data-[state=closed]:slide-out-to-right data-[state=open]:slide-in-from-right sm:max-w-sm',
          side === 'left' &&
            'inset-y-0 left-0 h-full w-3/4 border-r data-[state=closed]:slide-out-to-left data-[state=open]:slide-in-from-left sm:max-w-sm',
          side === 'top' &&
            'inset-x-0 top-0 h-auto max-h-[85dvh] border-b data-[state=closed]:slide-out-to-top data-[state=open]:slide-in-from-top',
          side === 'bottom' &&
            'inset-x-0 bottom-0 h-auto max-h-[85dvh] border-t data-[state=closed]:slide-out-to-bottom data-[state=open]:slide-in-from-bottom',
          className,
        )}
        {...props}
      >
        {children}
        {showCloseButton && <CornerClose slot="sheet-close" />}
      </SheetPrimitive.Content>
    </SheetPortal>
  );
}

const SheetHeader = slotted('div', 'sheet-header', 'flex flex-col gap-1.5 p-4 pr-12');
const SheetFooter = slotted('div', 'sheet-footer', 'mt-auto flex flex-col gap-2 p-4');
const SheetTitle = slotted(SheetPrimitive.Title, 'sheet-title', 'font-semibold text-foreground');
const SheetDescription = slotted(SheetPrimitive.Description, 'sheet-description', 'text-sm text-muted-foreground');

export { Sheet, SheetClose, SheetContent, SheetDescription, SheetFooter, SheetHeader, SheetOverlay, SheetPortal, SheetTitle, SheetTrigger };
