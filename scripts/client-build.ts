import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src/client', 'src/domain', 'sw', 'public', 'index.html', 'vite.config.ts'];

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/** Builds the web app into dist/ when it is missing or older than its sources. */
export function ensureClientBuilt(): void {
  const built = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0;
  if (built >= Math.max(...SOURCES.map(newestChange))) return;
  console.log('Building the web app …');
  // Always a production build: under the test runner NODE_ENV is "test", which would make Vite
  // build React's development bundle and leave the service worker unregistered.
  const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error(`The web app build failed (exit ${build.status})`);
}
