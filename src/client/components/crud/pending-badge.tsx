import { Link } from '@tanstack/react-router';
import { CloudUpload, TriangleAlert } from 'lucide-react';
import { PENDING_WORDS } from '../../lib/pending';
import type { OutboxEntry } from '../../lib/outbox';
import { Badge } from '../ui/badge';

/** "Pending edit" (or "Needs attention") on a record whose change is still in the outbox; leads to Pending changes. */
export function PendingBadge({ entry }: { entry: OutboxEntry | undefined }) {
  if (!entry) return null;
  const attention = entry.state === 'needs-attention';
  return (
    <Badge asChild variant={attention ? 'destructive' : 'warning'}>
      <Link to="/pending-changes" title={entry.message ?? 'Waiting to be sent to the server'}>
        {attention ? <TriangleAlert aria-hidden /> : <CloudUpload aria-hidden />}
        {attention ? 'Needs attention' : PENDING_WORDS[entry.action]}
      </Link>
    </Badge>
  );
}
