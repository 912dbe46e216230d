import { centavosToPesos, formatPesos } from '../../../domain/money';
import { cn } from '../../lib/utils';

/** The change to hand back, in large type: while paying, and once the sale is made. */
export function ChangeDue({ centavos, testId, className }: { centavos: number; testId: string; className: string }) {
  return (
    <p className="flex items-baseline justify-between text-lg">
      <span>Change</span>
      <span data-testid={testId} className={cn('font-bold tabular-nums', className)}>
        {formatPesos(centavosToPesos(centavos))}
      </span>
    </p>
  );
}
