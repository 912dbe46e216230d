import { Trash2 } from 'lucide-react';
import { Button } from '../ui/button';

/** The bin that takes a row (a line, a tender) off a form; `label` names the row for a screen reader. */
export function RemoveRowButton({
  label,
  onRemove,
  disabled,
  className,
}: {
  label: string;
  onRemove: () => void;
  disabled: boolean;
  className?: string;
}) {
  return (
    <Button type="button" variant="ghost" size="icon" className={className} aria-label={label} onClick={onRemove} disabled={disabled}>
      <Trash2 aria-hidden />
    </Button>
  );
}
