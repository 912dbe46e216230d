/**
 * Parts of screens loaded when first used — a menu, a dialog, the toaster, a document's editor —
 * so that a first screen carries only what it shows. With a service worker every part is cached
 * with the app. Without one (plain http under a network name is no secure context, and has no
 * service worker), a part first needed after the network dropped could not be fetched: there,
 * each part is loaded as soon as the page is idle after the module that uses it has loaded.
 */

import { whenIdle } from './when-idle';

const withoutServiceWorker = typeof navigator !== 'undefined' && !('serviceWorker' in navigator);

/** `load`, run once (again after a failure); without a service worker, run ahead when the page is idle. */
export function loadAhead<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  const once = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  if (withoutServiceWorker) whenIdle(() => void once().catch(() => undefined));
  return once;
}
