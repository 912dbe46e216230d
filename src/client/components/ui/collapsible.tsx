import { Collapsible as CollapsiblePrimitive } from 'radix-ui';

import { slotted } from '@/client/components/ui/slotted';

const Collapsible = slotted(CollapsiblePrimitive.Root, 'collapsible');
const CollapsibleTrigger = slotted(CollapsiblePrimitive.CollapsibleTrigger, 'collapsible-trigger');
const CollapsibleContent = slotted(CollapsiblePrimitive.CollapsibleContent, 'collapsible-content');

export { Collapsible, CollapsibleContent, CollapsibleTrigger };
