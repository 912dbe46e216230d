import { ensureClientBuilt } from './client-build';

/** `npm start`: builds the web app when the build is missing or stale, then serves app and API. */
ensureClientBuilt();
await import('../src/server/main');
