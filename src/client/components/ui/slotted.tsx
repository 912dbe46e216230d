import * as React from 'react';

import { cn } from '@/client/lib/utils';

/**
 * A component that renders `Component` (a Radix part or a tag such as `'div'`) marked
 * `data-slot={slot}`, with the same props, `ref` included. Given `classes`, they come first in its
 * class list and the caller's `className` after them, merged by `cn` so the caller's win. Devtools
 * show it under its slot's name: `dialog-trigger` as `DialogTrigger`.
 */
export function slotted<T extends React.ElementType>(Component: T, slot: string, classes?: string) {
  const Element: React.ElementType = Component;
  function Slotted(props: React.ComponentProps<T>) {
    if (classes === undefined) return <Element data-slot={slot} {...props} />;
    const { className, ...rest } = props as { className?: string };
    return <Element data-slot={slot} className={cn(classes, className)} {...rest} />;
  }
  Slotted.displayName = slot.replace(/(?:^|-)(\w)/g, (_, letter: string) => letter.toUpperCase());
  return Slotted;
}
