import type { StatusTone } from '../../../domain/lifecycle';
import type { ResourceDefinition } from '../../../domain/resource';
import { displayValue } from '../../lib/format';
import type { ApiRecord } from '../../lib/resource-queries';
import { Badge } from '../ui/badge';

/** How each tone of a status shows. */
const TONE_VARIANT: Record<StatusTone, 'default' | 'secondary' | 'destructive' | 'outline' | 'warning'> = {
  open: 'outline',
  outstanding: 'warning',
  complete: 'default',
  undone: 'destructive',
  neutral: 'secondary',
};

/** A document's status as a badge: "Partially received", "Void" … */
export function StatusBadge({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const status = String(record.status ?? '');
  if (!status) return <Badge variant="outline">Number assigned on sync</Badge>;
  const tone = definition.document?.lifecycle.statuses[status] ?? 'neutral';
  return <Badge variant={TONE_VARIANT[tone]}>{displayValue('status', definition.fields.status, record)}</Badge>;
}
