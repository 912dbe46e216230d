import { ToggleGroup } from 'radix-ui';
import type { PlaceLevel } from '../../../domain/places';
import { cn } from '../../lib/utils';
import { toggleVariants } from '../ui/toggle';

const CHOICES: { value: PlaceLevel | 'none'; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'view', label: 'View' },
  { value: 'operate', label: 'Operate' },
];

/**
 * None, View or Operate at a place: three buttons of which one is pressed, moved between by the
 * arrow keys (a radio group to a screen reader). One is always chosen; pressing it again keeps it.
 */
export function LevelChoice({
  label,
  value,
  onChange,
  disabled,
}: {
  /** What it chooses for: "Level at Makati". */
  label: string;
  value: PlaceLevel | null;
  onChange: (level: PlaceLevel | null) => void;
  disabled?: boolean;
}) {
  return (
    <ToggleGroup.Root
      type="single"
      aria-label={label}
      value={value ?? 'none'}
      onValueChange={(next) => {
        if (next) onChange(next === 'none' ? null : (next as PlaceLevel));
      }}
      disabled={disabled}
      className="flex shrink-0 rounded-md border border-input shadow-xs sm:inline-flex"
    >
      {CHOICES.map((choice) => (
        <ToggleGroup.Item
          key={choice.value}
          value={choice.value}
          className={cn(
            toggleVariants({ size: 'default' }),
            'flex-1 rounded-none border-l border-input first:rounded-l-md first:border-l-0 last:rounded-r-md sm:flex-none',
            'data-[state=on]:bg-primary data-[state=on]:text-primary-foreground',
          )}
        >
          {choice.label}
        </ToggleGroup.Item>
      ))}
    </ToggleGroup.Root>
  );
}
