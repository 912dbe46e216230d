import { CloudOff } from 'lucide-react';
import { inWorkingSet } from '../../domain/working-set';
import { formatTimestamp } from '../lib/format';
import { shownAsOf, useSyncStatus } from '../lib/freshness';
import { OFFLINE_NOTICE_ATTRIBUTE } from '../lib/kept-look';

const NOTICE_CLASS = 'flex items-center gap-2 rounded-md border border-warning/50 bg-warning/15 p-3 text-sm';
const ICON_CLASS = 'size-4 shrink-0';
const noticeText = (asOf: number) => `Offline — showing data saved at ${formatTimestamp(new Date(asOf).toISOString())}`;

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
    <p role="status" className={NOTICE_CLASS} data-offline-notice="">
      <CloudOff className={ICON_CLASS} aria-hidden />
      {noticeText(asOf)}
    </p>
  );
}

/**
 * The notice as a screen drawn online would show it offline, data saved at `asOf`, for its kept look
 * (lib/kept-look.ts): the same box and words, the icon's place kept empty.
 */
export function keptOfflineNotice(asOf: number): HTMLElement {
  const notice = document.createElement('p');
  notice.className = NOTICE_CLASS;
  notice.setAttribute(OFFLINE_NOTICE_ATTRIBUTE, '');
  const icon = document.createElement('span');
  icon.className = ICON_CLASS;
  notice.append(icon, noticeText(asOf));
  return notice;
}
