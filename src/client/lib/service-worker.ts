import { toast } from './notify';

const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker and asks before updating: when a new version is waiting, a toast
 * says "New version available" with a Reload button; only that button reloads, so a form being
 * filled in is never lost. The server is asked for a new version every hour. Outside a secure
 * context (plain http under a name other than localhost) there is no service worker to register;
 * the app shell says what that costs. workbox-window is loaded after the first screen, not with it.
 */
export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const { Workbox } = await import('workbox-window');
  const workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => {
    toast('New version available', {
      duration: Infinity,
      action: {
        label: 'Reload',
        onClick: () => {
          workbox.addEventListener('controlling', () => window.location.reload());
          workbox.messageSkipWaiting();
        },
      },
    });
  });
  void workbox.register().then(() => setInterval(() => void workbox.update(), UPDATE_CHECK_MS));
}
