import { useState, type FormEvent, type ReactNode } from 'react';
import { LabelledField } from './labelled-field';
import { Button } from './ui/button';
import { Input } from './ui/input';

export interface Period {
  from: string;
  to: string;
}

/**
 * A period's two days, From and To, shown when Show is pressed (a from day after the to day is
 * refused in words); `children` go beside Show. `name` makes the fields' ids, `className` and
 * `dayClassName` lay the form and each day out on the screen that holds it.
 */
export function PeriodForm({
  name,
  label,
  period,
  max,
  onShow,
  className,
  dayClassName,
  showClassName,
  children,
}: {
  name: string;
  label: string;
  period: Period;
  /** The last day either may be. */
  max?: string;
  onShow: (period: Period) => void;
  className?: string;
  dayClassName?: string;
  showClassName?: string;
  children?: ReactNode;
}) {
  const [draft, setDraft] = useState(period);
  const backwards = draft.from !== '' && draft.to !== '' && draft.from > draft.to;
  const problem = `${name}-period-problem`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from && draft.to && !backwards) onShow(draft);
  };
  const day = (end: keyof Period, dayLabel: string) => (
    <div className={dayClassName}>
      <LabelledField id={`${name}-${end}`} label={dayLabel}>
        <Input
          id={`${name}-${end}`}
          type="date"
          required
          value={draft[end]}
          max={max}
          aria-invalid={(end === 'from' && backwards) || undefined}
          aria-describedby={end === 'from' && backwards ? problem : undefined}
          onChange={(event) => setDraft({ ...draft, [end]: event.target.value })}
        />
      </LabelledField>
    </div>
  );
  return (
    <form onSubmit={submit} aria-label={label} className={className}>
      {day('from', 'From')}
      {day('to', 'To')}
      <Button type="submit" className={showClassName} disabled={backwards}>
        Show
      </Button>
      {children}
      {backwards && (
        <p id={problem} className="col-span-full w-full text-sm text-destructive">
          The from date must be on or before the to date.
        </p>
      )}
    </form>
  );
}
