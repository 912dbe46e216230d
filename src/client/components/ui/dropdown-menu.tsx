import * as React from 'react';
import { DropdownMenu as DropdownMenuPrimitive } from 'radix-ui';
import { CheckIcon, ChevronRightIcon, CircleIcon } from 'lucide-react';

import { slotted } from '@/client/components/ui/slotted';

const DropdownMenu = slotted(DropdownMenuPrimitive.Root, 'dropdown-menu');
const DropdownMenuPortal = slotted(DropdownMenuPrimitive.Portal, 'dropdown-menu-portal');
const DropdownMenuTrigger = slotted(DropdownMenuPrimitive.Trigger, 'dropdown-menu-trigger');

const StyledDropdownMenuContent = slotted(
  DropdownMenuPrimitive.Content,
  'dropdown-menu-content',
  'z-50 max-h-(--radix-dropdown-menu-content-available-height) min-w-[8rem] origin-(--radix-dropdown-menu-content-transform-origin) overflow-x-hidden overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md data-[side=bottom]:slide-in-from-top-2 data-[side=left]:slide-in-from-right-2 data-[side=right]:slide-in-from-left-2 data-[side=top]:slide-in-from-bottom-2 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=closed]:zoom-out-95 data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95',
);

function DropdownMenuContent({ sideOffset = 4, ...props }: React.ComponentProps<typeof DropdownMenuPrimitive.Content>) {
  return (
    <DropdownMenuPrimitive.Portal>
      <StyledDropdownMenuContent sideOffset={sideOffset} {...props} />
    </DropdownMenuPrimitive.Portal>
  );
}

const DropdownMenuGroup = slotted(DropdownMenuPrimitive.Group, 'dropdown-menu-group');

const StyledDropdownMenuItem = slotted(
  DropdownMenuPrimitive.Item,
  'dropdown-menu-item',
  "relative flex cursor-default items-center gap-2 rounded-sm px-2 py-2 text-sm outline-hidden select-none focus:bg-accent focus:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50 data-[inset]:pl-8 data-[variant=destructive]:text-destructive data-[variant=destructive]:focus:bg-destructive/10 data-[variant=destructive]:focus:text-destructive dark:data-[variant=destructive]:focus:bg-destructive/20 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4 [&_svg:not([class*='text-'])]:text-muted-foreground data-[variant=destructive]:*:[svg]:!text-destructive",
);

function DropdownMenuItem({
  inset,
  variant = 'default',
  ...props
}: React.ComponentProps<typeof DropdownMenuPrimitive.Item> & {
  inset?: boolean;
  variant?: 'default' | 'destructive';
}) {
  return <StyledDropdownMenuItem data-inset={inset} data-variant={variant} {...props} />;
}

/** The classes of a checkbox or a radio item, which leave room on the left for its `ItemIndicator`. */
const checkableItemClasses =
  "relative flex cursor-default items-center gap-2 rounded-sm py-2 pr-2 pl-8 text-sm outline-hidden select-none focus:bg-accent focus:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4";

/** The tick or the dot on the left of a checkbox or a radio item, shown while it is chosen. */
function ItemIndicator({ children }: { children: React.ReactNode }) {
  return (
    <span className="pointer-events-none absolute left-2 flex size-3.5 items-center justify-center">
      <DropdownMenuPrimitive.ItemIndicator>{children}</DropdownMenuPrimitive.ItemIndicator>
    </span>
  );
}

const StyledDropdownMenuCheckboxItem = slotted(DropdownMenuPrimitive.CheckboxItem, 'dropdown-menu-checkbox-item', checkableItemClasses);

function DropdownMenuCheckboxItem({ children, ...props }: React.ComponentProps<typeof DropdownMenuPrimitive.CheckboxItem>) {
  return (
    <StyledDropdownMenuCheckboxItem {...props}>
      <ItemIndicator>
        <CheckIcon className="size-4" />
      </ItemIndicator>
      {children}
    </StyledDropdownMenuCheckboxItem>
  );
}

const DropdownMenuRadioGroup = slotted(DropdownMenuPrimitive.RadioGroup, 'dropdown-menu-radio-group');

const StyledDropdownMenuRadioItem = slotted(DropdownMenuPrimitive.RadioItem, 'dropdown-menu-radio-item', checkableItemClasses);

function DropdownMenuRadioItem({ children, ...props }: React.ComponentProps<typeof DropdownMenuPrimitive.RadioItem>) {
  return (
    <StyledDropdownMenuRadioItem {...props}>
      <ItemIndicator>
        <CircleIcon className="size-2 fill-current" />
      </ItemIndicator>
      {children}
    </StyledDropdownMenuRadioItem>
  );
}

const StyledDropdownMenuLabel = slotted(
  DropdownMenuPrimitive.Label,
  'dropdown-menu-label',
  'px-2 py-1.5 text-sm font-medium data-[inset]:pl-8',
);

function DropdownMenuLabel({
  inset,
  ...props
}: React.ComponentProps<typeof DropdownMenuPrimitive.Label> & {
  inset?: boolean;
}) {
  return <StyledDropdownMenuLabel data-inset={inset} {...props} />;
}

const DropdownMenuSeparator = slotted(DropdownMenuPrimitive.Separator, 'dropdown-menu-separator', '-mx-1 my-1 h-px bg-border');
const DropdownMenuShortcut = slotted('span', 'dropdown-menu-shortcut', 'ml-auto text-xs tracking-widest text-muted-foreground');
const DropdownMenuSub = slotted(DropdownMenuPrimitive.Sub, 'dropdown-menu-sub');

const StyledDropdownMenuSubTrigger = slotted(
  DropdownMenuPrimitive.SubTrigger,
  'dropdown-menu-sub-trigger',
  "flex cursor-default items-center gap-2 rounded-sm px-2 py-2 text-sm outline-hidden select-none focus:bg-accent focus:text-accent-foreground data-[inset]:pl-8 data-[state=open]:bg-accent data-[state=open]:text-accent-foreground [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4 [&_svg:not([class*='text-'])]:text-muted-foreground",
);

function DropdownMenuSubTrigger({
  inset,
  children,
  ...props
}: React.ComponentProps<typeof DropdownMenuPrimitive.SubTrigger> & {
  inset?: boolean;
}) {
  return (
    <StyledDropdownMenuSubTrigger data-inset={inset} {...props}>
      {children}
      <ChevronRightIcon className="ml-auto size-4" />
    </StyledDropdownMenuSubTrigger>
  );
}

const DropdownMenuSubContent = slotted(
  DropdownMenuPrimitive.SubContent,
  'dropdown-menu-sub-content',
  'z-50 min-w-[8rem] origin-(--radix-dropdown-menu-content-transform-origin) overflow-hidden rounded-md border bg-popover p-1 text-popover-foreground shadow-lg data-[side=bottom]:slide-in-from-top-2 data-[side=left]:slide-in-from-right-2 data-[side=right]:slide-in-from-left-2 data-[side=top]:slide-in-from-bottom-2 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=closed]:zoom-out-95 data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95',
);

export {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuPortal,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuShortcut,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
};
