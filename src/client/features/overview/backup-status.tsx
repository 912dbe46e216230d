import { useQuery } from '@tanstack/react-query';
import { DatabaseBackup, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { MASTER_PERMISSION } from '../../../domain/permissions';
import { api } from '../../lib/api';
import { formatTimestamp } from '../../lib/format';
import { useActiveBusinessId, usePermissions } from '../../lib/session';

/** `GET /api/operations/backups` (src/server/routes/operations.routes.ts): for the master who runs the server. */
interface Backup {
  id: number;
  kind: 'manual' | 'scheduled' | 'before-migrations';
  started_at: string;
  seconds: number;
  file: string | null;
  bytes: number | null;
  error: string | null;
}

export interface Backups {
  /** How often the server takes one (`6h`), or null when it takes none by itself. */
  every: string | null;
  /** The newest first, failed ones included. */
  data: Backup[];
  last_succeeded: Backup | null;
}

const manila = (time: string) => `${formatTimestamp(time)} (Manila)`;

/**
 * For the master who runs the server, under the overview's greeting: when the database was last
 * backed up, a warning when the last backup failed, and a hint when the server takes none by
 * itself. Asked for only by masters; the server answers only the one of them who runs it (a
 * master of a business of their own is refused, the backups being the whole server's), and
 * nothing is shown on a refusal.
 *
 * `children` (the overview's figures) stand under the line. For a master they are shown once the
 * backups have answered (or failed, or wait for a network): the line comes after the screen is
 * first drawn, and cards already drawn under it would be pushed down by it — a jump under the
 * reader's eyes, which Lighthouse counts as layout shift (bench/not-met.md). They are made
 * meanwhile, hidden, so that their queries are asked for with this one, not after it; its answer
 * comes with theirs. Nobody else waits.
 */
export function BackupStatus({ children }: { children?: ReactNode }) {
  const master = usePermissions().has(MASTER_PERMISSION);
  const businessId = useActiveBusinessId();
  const { data, isPending, fetchStatus } = useQuery({
    queryKey: [businessId, 'operations', 'backups'],
    queryFn: ({ signal }) => api<Backups>('GET', '/api/operations/backups', { signal }),
    enabled: master,
    retry: false,
  });
  const answering = master && isPending && fetchStatus === 'fetching';
  return (
    <>
      {master && data && <BackupLine data={data} />}
      <div hidden={answering} className="space-y-4">
        {children}
      </div>
    </>
  );
}

function BackupLine({ data }: { data: Backups }) {
  const failed = data.data[0]?.error ? data.data[0] : undefined;
  const last = data.last_succeeded;
  return (
    <div className="space-y-2 text-sm">
      {failed && (
        <p role="alert" className="flex items-start gap-2 rounded-md border border-warning/50 bg-warning/15 p-3">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span className="min-w-0 break-words">
            The last backup failed at {manila(failed.started_at)}: {failed.error}
          </span>
        </p>
      )}
      <p className="flex items-start gap-2 text-muted-foreground">
        <DatabaseBackup className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          {last ? `Last backup: ${manila(last.started_at)}.` : 'No backup has been taken yet.'}{' '}
          {data.every ? `The server takes one every ${data.every}.` : 'Backups are not scheduled: run npm run backup, or set BACKUP_EVERY.'}
        </span>
      </p>
    </div>
  );
}
