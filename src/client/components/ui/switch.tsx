import * as React from 'react';
import { Switch as SwitchPrimitive } from 'radix-ui';

import { slotted } from '@/client/components/ui/slotted';

const StyledSwitch = slotted(
  SwitchPrimitive.Root,
  'switch',
  'peer inline-flex h-6 w-11 shrink-0 items-center rounded-full border border-transparent shadow-xs transition-all outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-primary data-[state=unchecked]:bg-muted-foreground/40 dark:data-[state=unchecked]:bg-input/80',
);

/** Label it with `<Label htmlFor>` or `aria-label`; Radix gives it `role="switch"` and `aria-checked`. */
function Switch(props: React.ComponentProps<typeof SwitchPrimitive.Root>) {
  return (
    <StyledSwitch {...props}>
      <SwitchPrimitive.Thumb
        data-slot="switch-thumb"
        className="pointer-events-none block size-5 rounded-full bg-background shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-[calc(100%-0px)] data-[state=unchecked]:translate-x-0.5 dark:data-[state=checked]:bg-primary-foreground dark:data-[state=unchecked]:bg-foreground"
      />
    </StyledSwitch>
  );
}

export { Switch };
