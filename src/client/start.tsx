// First: what the first screen waits for is asked for before the rest is evaluated.
import './first-screen';
import { App } from './app';
import { warmClassNames } from './lib/utils';
import { registerServiceWorker } from './lib/service-worker';
import { applyStoredTheme } from './lib/theme';

/**
 * The app, as the entry (main.tsx) starts it once React is evaluated: its own code is evaluated in
 * a task of its own, after React's, so a slow phone is never held for the two at once.
 */
export { App };

applyStoredTheme();
void registerServiceWorker();
// After this evaluation, while the first screen's data is on the way (lib/utils.ts).
setTimeout(warmClassNames);
