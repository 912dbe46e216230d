import { ChevronDownIcon } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';

/**
 * The browser's own select, styled as the others: its options show in the device's own picker
 * (the wheel on a phone), and it needs no code of ours to open, position or dismiss.
 */
function NativeSelect({ className, ...props }: ComponentProps<'select'>) {
  return (
    <div className={cn('relative w-fit', className)} data-slot="native-select-wrapper">
      <select
        data-slot="native-select"
        className="h-11 w-full appearance-none rounded-md border border-input bg-transparent py-2 pr-8 pl-3 text-sm shadow-xs transition-[color,box-shadow] outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 dark:bg-input/30 dark:hover:bg-input/50 [&>option]:bg-popover [&>option]:text-popover-foreground"
        {...props}
      />
      <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 opacity-50" aria-hidden />
    </div>
  );
}

/** The `<option>`s of a native select, after a first empty one saying `prompt` (e.g. "Choose…") when given. */
export function NativeOptions({ choices, prompt }: { choices: readonly { value: string | number; label: string }[]; prompt?: string }) {
  return (
    <>
      {prompt !== undefined && <option value="">{prompt}</option>}
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </>
  );
}

export { NativeSelect };
