import * as React from 'react';
import { Separator as SeparatorPrimitive } from 'radix-ui';

import { slotted } from '@/client/components/ui/slotted';

const StyledSeparator = slotted(
  SeparatorPrimitive.Root,
  'separator',
  'shrink-0 bg-border data-[orientation=horizontal]:h-px data-[orientation=horizontal]:w-full data-[orientation=vertical]:h-full data-[orientation=vertical]:w-px',
);

function Separator({ orientation = 'horizontal', decorative = true, ...props }: React.ComponentProps<typeof SeparatorPrimitive.Root>) {
  return <StyledSeparator decorative={decorative} orientation={orientation} {...props} />;
}

export { Separator };
