import { Cloud, CloudAlert, CloudCheck, CloudDownload, CloudOff } from 'lucide-react';
import { Suspense, useState, type ReactElement } from 'react';
import { syncWords, useSyncStatus, type SyncTone } from '../../lib/freshness';
import { loadAhead } from '../../lib/load-ahead';
import { cn } from '../../lib/utils';
import { Button } from '../ui/button';
import { lazyAhead } from '../ui/deferred';

/**
 * The header's word on freshness: an icon saying whether this device is online and receives other
 * devices' changes live, is getting its working set ready for offline use (with how far), is
 * offline (since when), or cannot keep the working set. Pressing it opens a popover saying all of
 * it in words, with "Sync now" and the pending changes (sync-popover.tsx, loaded on first press).
 * On a phone it is the icon alone; wider screens add a few words.
 */

const popover = loadAhead(() => import('./sync-popover'));
const SyncPopover = lazyAhead(() => popover().then(({ SyncPopover }) => SyncPopover));

const ICONS: Record<SyncTone, typeof Cloud> = {
  live: CloudCheck,
  connecting: Cloud,
  online: Cloud,
  downloading: CloudDownload,
  offline: CloudOff,
  problem: CloudAlert,
};

/** The small dot at the icon's foot: green while live, hollow while reconnecting, amber for a problem. */
const DOTS: Partial<Record<SyncTone, string>> = {
  live: 'bg-emerald-500',
  connecting: 'border border-muted-foreground bg-background',
  problem: 'bg-warning',
};

export function SyncIndicator() {
  const status = useSyncStatus();
  const words = syncWords(status);
  const [pressed, setPressed] = useState(false);
  const Icon = ICONS[words.tone];
  const dot = DOTS[words.tone];

  const button: ReactElement = (
    <Button
      variant="ghost"
      className={cn('relative h-11 min-w-11 gap-1.5 px-3', words.tone === 'offline' && 'text-muted-foreground')}
      aria-label={words.headline}
      title={words.headline}
      data-testid="sync-indicator"
      data-tone={words.tone}
      aria-haspopup="dialog"
      // Once pressed, the popover's trigger says whether it is open.
      {...(pressed ? {} : { 'aria-expanded': false })}
      onPointerEnter={() => void popover()}
      onFocus={() => void popover()}
      onClick={pressed ? undefined : () => setPressed(true)}
    >
      <span className="relative">
        <Icon className={cn('size-4', words.tone === 'problem' && 'text-warning-foreground dark:text-warning')} aria-hidden />
        {dot && <span className={cn('absolute -right-0.5 -bottom-0.5 size-2 rounded-full', dot)} aria-hidden />}
      </span>
      {words.short && (
        <span className="hidden max-w-56 truncate text-xs font-normal lg:inline xl:max-w-none" aria-hidden>
          {words.tone === 'downloading' && words.percent !== null ? (
            <>
              <span className="xl:hidden">{words.short}</span>
              <span className="hidden xl:inline">{words.headline}</span>
            </>
          ) : (
            words.short
          )}
        </span>
      )}
      {words.percent !== null && (
        <span className="absolute inset-x-2.5 bottom-2 h-0.5 overflow-hidden rounded-full bg-muted" aria-hidden>
          <span className="block h-full bg-primary" style={{ width: `${words.percent}%` }} />
        </span>
      )}
    </Button>
  );

  if (!pressed) return button;
  return (
    <Suspense fallback={button}>
      <SyncPopover trigger={button} status={status} words={words} />
    </Suspense>
  );
}
