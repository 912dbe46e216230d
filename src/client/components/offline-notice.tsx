import { CloudOff } from 'lucide-react';
import { formatTimestamp } from '../lib/format';

/** Says that what is shown is the copy kept on this device, and from when. */
export function OfflineNotice({ savedAt }: { savedAt: number | undefined }) {
  if (savedAt === undefined) return null;
  return (
    <p role="status" className="flex items-center gap-2 rounded-md border border-warning/50 bg-warning/15 p-3 text-sm">
      <CloudOff className="size-4 shrink-0" aria-hidden />
      Offline — showing data saved at {formatTimestamp(new Date(savedAt).toISOString())}
    </p>
  );
}
