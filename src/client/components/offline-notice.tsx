import { CloudOff } from 'lucide-react';
import { inWorkingSet } from '../../domain/working-set';
import { formatTimestamp } from '../lib/format';
import { shownAsOf, useSyncStatus } from '../lib/freshness';

/**
 * Says that what is shown is the copy kept on this device, and from when. Given the `resource`
 * shown, a copy of the working set says the time the working set was last brought up to date, when
 * that is older than the copy's own (lib/freshness.ts `shownAsOf`).
 */
export function OfflineNotice({ savedAt, resource }: { savedAt: number | undefined; resource?: string }) {
  const status = useSyncStatus();
  if (savedAt === undefined) return null;
  const asOf = shownAsOf({ savedOffline: savedAt, workingSet: resource !== undefined && inWorkingSet(resource) }, status) ?? savedAt;
  return (
    <p role="status" className="flex items-center gap-2 rounded-md border border-warning/50 bg-warning/15 p-3 text-sm">
      <CloudOff className="size-4 shrink-0" aria-hidden />
      Offline — showing data saved at {formatTimestamp(new Date(asOf).toISOString())}
    </p>
  );
}
