import * as React from 'react';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';

import { buttonVariants } from '@/client/components/ui/button';
import { dialogOverlayClasses, dialogPanelClasses } from '@/client/components/ui/dialog';
import { slotted } from '@/client/components/ui/slotted';

export const AlertDialog = slotted(AlertDialogPrimitive.Root, 'alert-dialog');
export const AlertDialogTrigger = slotted(AlertDialogPrimitive.Trigger, 'alert-dialog-trigger');
export const AlertDialogPortal = slotted(AlertDialogPrimitive.Portal, 'alert-dialog-portal');
export const AlertDialogOverlay = slotted(AlertDialogPrimitive.Overlay, 'alert-dialog-overlay', dialogOverlayClasses);
const StyledAlertDialogContent = slotted(AlertDialogPrimitive.Content, 'alert-dialog-content', dialogPanelClasses);

/** Needs an `AlertDialogTitle` and an `AlertDialogDescription`; focus starts on `AlertDialogCancel`, so a stray Enter is harmless. */
export function AlertDialogContent(props: React.ComponentProps<typeof AlertDialogPrimitive.Content>) {
  return (
    <AlertDialogPortal>
      <AlertDialogOverlay />
      <StyledAlertDialogContent {...props} />
    </AlertDialogPortal>
  );
}

export const AlertDialogHeader = slotted('div', 'alert-dialog-header', 'flex flex-col gap-2 text-center sm:text-left');
export const AlertDialogFooter = slotted('div', 'alert-dialog-footer', 'flex flex-col-reverse gap-2 sm:flex-row sm:justify-end');
export const AlertDialogTitle = slotted(AlertDialogPrimitive.Title, 'alert-dialog-title', 'text-lg font-semibold');
export const AlertDialogDescription = slotted(
  AlertDialogPrimitive.Description,
  'alert-dialog-description',
  'text-sm text-muted-foreground',
);
/** Styled as the default button; pass `className={buttonVariants({ variant: 'destructive' })}` for deletions. */
export const AlertDialogAction = slotted(AlertDialogPrimitive.Action, 'alert-dialog-action', buttonVariants());
export const AlertDialogCancel = slotted(AlertDialogPrimitive.Cancel, 'alert-dialog-cancel', buttonVariants({ variant: 'outline' }));
