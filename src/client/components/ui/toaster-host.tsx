import { lazy, Suspense, useSyncExternalStore } from 'react';
import { loadAhead } from '../../lib/load-ahead';
import { toasterWanted, watchToaster } from '../../lib/notify';

const loadToaster = loadAhead(() => import('./sonner'));
const Toaster = lazy(() => loadToaster().then(({ Toaster }) => ({ default: Toaster })));

/** Mount once near the root: the toaster, loaded and shown from the first toast on (`lib/notify.ts`). */
export function ToasterHost() {
  const wanted = useSyncExternalStore(watchToaster, toasterWanted, () => false);
  return wanted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
