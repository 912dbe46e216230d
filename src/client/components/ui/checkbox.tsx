import * as React from 'react';
import { Checkbox as CheckboxPrimitive } from 'radix-ui';
import { CheckIcon, MinusIcon } from 'lucide-react';

import { slotted } from '@/client/components/ui/slotted';

const StyledCheckbox = slotted(
  CheckboxPrimitive.Root,
  'checkbox',
  'peer group size-5 shrink-0 rounded-[4px] border border-muted-foreground/60 shadow-xs transition-shadow outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 data-[state=checked]:border-primary data-[state=checked]:bg-primary data-[state=checked]:text-primary-foreground data-[state=indeterminate]:border-primary data-[state=indeterminate]:bg-primary data-[state=indeterminate]:text-primary-foreground dark:bg-input/30 dark:aria-invalid:ring-destructive/40 dark:data-[state=checked]:bg-primary dark:data-[state=indeterminate]:bg-primary',
);

/** Pass `checked="indeterminate"` for a "some selected" header checkbox. Label it with `<Label htmlFor>` or `aria-label`. */
function Checkbox(props: React.ComponentProps<typeof CheckboxPrimitive.Root>) {
  return (
    <StyledCheckbox {...props}>
      <CheckboxPrimitive.Indicator data-slot="checkbox-indicator" className="flex items-center justify-center text-current transition-none">
        <CheckIcon className="size-4 group-data-[state=indeterminate]:hidden" />
        <MinusIcon className="hidden size-4 group-data-[state=indeterminate]:block" />
      </CheckboxPrimitive.Indicator>
    </StyledCheckbox>
  );
}

export { Checkbox };
