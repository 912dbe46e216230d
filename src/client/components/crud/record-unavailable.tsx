import { Navigate } from '@tanstack/react-router';
import type { ResourceDefinition } from '../../../domain/resource';
import { ApiError, describeError } from '../../lib/api';
import { isNetworkFailure } from '../../lib/offline-store';
import { NotFoundScreen, NotPermittedScreen } from '../layout/not-found-screen';
import { ProgressBar } from '../ui/progress-bar';
import type { ShownRecord } from './shown-record';

/**
 * What the view and edit screens show in place of a record they cannot show (yet): the same
 * screen under the record's server id once it has synced (`movedTo`), why it failed, or progress.
 */
export function RecordUnavailable({
  definition,
  shown,
  movedTo,
}: {
  definition: ResourceDefinition;
  shown: Exclude<ShownRecord, { status: 'shown' }>;
  movedTo: '/$resource/$id' | '/$resource/$id/edit';
}) {
  const what = definition.singular.toLowerCase();
  if (shown.status === 'moved') return <Navigate to={movedTo} params={{ resource: definition.name, id: String(shown.id) }} replace />;
  if (shown.status === 'failed' && isNetworkFailure(shown.error)) return <p role="alert">{describeError(shown.error)}</p>;
  if (shown.status === 'failed' && shown.error instanceof ApiError && shown.error.status === 403) return <NotPermittedScreen what={what} />;
  if (shown.status === 'failed' || shown.status === 'not-found') return <NotFoundScreen what={what} />;
  return <ProgressBar active />;
}
