import * as React from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { XIcon } from 'lucide-react';

import { slotted } from '@/client/components/ui/slotted';

const Dialog = slotted(DialogPrimitive.Root, 'dialog');
const DialogTrigger = slotted(DialogPrimitive.Trigger, 'dialog-trigger');
const DialogPortal = slotted(DialogPrimitive.Portal, 'dialog-portal');
const DialogClose = slotted(DialogPrimitive.Close, 'dialog-close');

/** The dimmed backdrop behind a dialog, a sheet and an alert dialog. */
const dialogOverlayClasses =
  'fixed inset-0 z-50 bg-black/50 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=open]:animate-in data-[state=open]:fade-in-0';

/** The box of a dialog and an alert dialog, centred on the screen. */
const dialogPanelClasses =
  'fixed top-[50%] left-[50%] z-50 grid max-h-[calc(100dvh-2rem)] w-full max-w-[calc(100%-2rem)] translate-x-[-50%] translate-y-[-50%] gap-4 overflow-y-auto rounded-lg border bg-background p-6 shadow-lg duration-200 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=closed]:zoom-out-95 data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95 sm:max-w-lg';

const DialogOverlay = slotted(DialogPrimitive.Overlay, 'dialog-overlay', dialogOverlayClasses);
const StyledDialogContent = slotted(DialogPrimitive.Content, 'dialog-content', dialogPanelClasses);

/** The × in the top-right corner of a dialog or a sheet, marked `data-slot={slot}`. */
function CornerClose({ slot }: { slot: string }) {
  return (
    <DialogPrimitive.Close
      data-slot={slot}
      className="absolute top-3 right-3 inline-flex size-9 items-center justify-center rounded-md opacity-70 transition-opacity outline-none hover:bg-accent hover:text-accent-foreground hover:opacity-100 focus-visible:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4"
    >
      <XIcon aria-hidden="true" />
      <span className="sr-only">Close</span>
    </DialogPrimitive.Close>
  );
}

/** Always render a `DialogTitle` inside (visually hidden if need be) and a `DialogDescription` or `aria-describedby={undefined}`. */
function DialogContent({
  children,
  showCloseButton = true,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Content> & {
  showCloseButton?: boolean;
}) {
  return (
    <DialogPortal>
      <DialogOverlay />
      <StyledDialogContent {...props}>
        {children}
        {showCloseButton && <CornerClose slot="dialog-close" />}
      </StyledDialogContent>
    </DialogPortal>
  );
}

const DialogHeader = slotted('div', 'dialog-header', 'flex flex-col gap-2 text-center sm:text-left');
const DialogFooter = slotted('div', 'dialog-footer', 'flex flex-col-reverse gap-2 sm:flex-row sm:justify-end');
const DialogTitle = slotted(DialogPrimitive.Title, 'dialog-title', 'text-lg leading-none font-semibold');
const DialogDescription = slotted(DialogPrimitive.Description, 'dialog-description', 'text-sm text-muted-foreground');

export {
  CornerClose,
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogOverlay,
  DialogPortal,
  DialogTitle,
  DialogTrigger,
  dialogOverlayClasses,
  dialogPanelClasses,
};
