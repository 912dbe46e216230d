import { Link } from '@tanstack/react-router';
import { CloudUpload, RefreshCw } from 'lucide-react';
import { useState, type ReactElement } from 'react';
import type { SyncWords } from '../../lib/freshness';
import { useOutbox } from '../../lib/pending';
import { syncNow, type WorkingSetStatus } from '../../lib/working-set';
import { Button } from '../ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../ui/popover';

/**
 * The sync indicator's popover, loaded the first time it is pressed (sync-indicator.tsx shows its
 * button until then) and open as it mounts: the status in words, "Sync now", and the changes that
 * wait to be sent.
 */
export function SyncPopover({ trigger, status, words }: { trigger: ReactElement; status: WorkingSetStatus; words: SyncWords }) {
  const [open, setOpen] = useState(true);
  const { loaded, entries } = useOutbox();
  const attention = entries.filter((entry) => entry.state === 'needs-attention').length;
  const count = entries.length;
  const waiting = !loaded
    ? 'Reading the changes waiting on this device…'
    : count === 0
      ? 'Nothing waits to be sent.'
      : `${count === 1 ? '1 change waits' : `${count.toLocaleString('en-PH')} changes wait`} to be sent${attention > 0 ? `; ${attention} need${attention === 1 ? 's' : ''} attention` : ''}.`;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>{trigger}</PopoverTrigger>
      <PopoverContent align="end" className="w-80 max-w-[calc(100vw-1rem)] space-y-3" aria-labelledby="sync-popover-heading">
        <p id="sync-popover-heading" className="font-medium">
          {words.headline}
        </p>
        {words.percent !== null && (
          <div
            role="progressbar"
            aria-label="Getting ready for offline use"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={words.percent}
            className="h-1.5 overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full bg-primary" style={{ width: `${words.percent}%` }} />
          </div>
        )}
        {words.details.map((sentence) => (
          <p key={sentence} className="text-sm text-muted-foreground">
            {sentence}
          </p>
        ))}
        <div className="flex flex-wrap items-center gap-2 border-t pt-3">
          <Button
            variant="outline"
            size="sm"
            className="min-h-9"
            disabled={!status.online}
            title={status.online ? undefined : 'Needs a connection'}
            onClick={() => syncNow()}
          >
            {/* A problem's sentence asks to Retry once the device has room. */}
            <RefreshCw aria-hidden /> {status.problem ? 'Retry' : 'Sync now'}
          </Button>
          <Button asChild variant="ghost" size="sm" className="min-h-9">
            <Link to="/pending-changes" onClick={() => setOpen(false)}>
              <CloudUpload aria-hidden /> Pending changes{loaded ? ` (${count})` : ''}
            </Link>
          </Button>
        </div>
        <p className="text-sm text-muted-foreground">{waiting}</p>
      </PopoverContent>
    </Popover>
  );
}
