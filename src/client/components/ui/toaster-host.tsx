import { useSyncExternalStore } from 'react';
import { toasterWanted, watchToaster } from '../../lib/notify';
import { lazyComponent } from './deferred';

const Toaster = lazyComponent(() => import('./sonner').then(({ Toaster }) => Toaster));

/** Mount once near the root: the toaster, loaded and shown from the first toast on (`lib/notify.ts`). */
export function ToasterHost() {
  const wanted = useSyncExternalStore(watchToaster, toasterWanted, () => false);
  return wanted ? <Toaster /> : null;
}
