import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build as rolldownBuild } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** Where index.html's body holds the app's root, after the first look. */
const APP_ROOT = '<div id="root"></div>';

/** Text the server sends as it is built: compressed once here, not on every request. */
// Text, and the barcode reader's WebAssembly (1.1 MB, about a third of it compressed).
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|map|txt|wasm)$/;

/**
 * Writes a brotli (`.br`, best quality) and a gzip (`.gz`) copy beside every text file of the
 * build above 1 kB, the service worker included; the server sends the one the browser accepts
 * (`@fastify/static`'s `preCompressed`). Runs after the service worker is built.
 */
function precompress(outDir: string): Plugin {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
  return {
    name: 'bodega:precompress',
    apply: 'build',
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of files(outDir)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const body = readFileSync(file);
          if (body.length < 1024) continue;
          writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        }
      },
    },
  };
}

/**
 * Moves the app's stylesheet from the head to the body, after the first look and before the app's
 * root. In the head it holds back every paint until it has arrived; there it holds back only what
 * comes after it — the kept look's script (`keptLookScript`) and the app's code (a module script
 * runs once the stylesheets before it are in) — so the first look (index.html, with a style of its
 * own) is drawn as soon as the page is, and the app still never draws unstyled.
 */
function stylesheetAfterFirstLook(): Plugin {
  return {
    name: 'bodega:stylesheet-after-first-look',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const links = html.match(/^\s*<link rel="stylesheet"[^>]*>\n/gm) ?? [];
        if (links.length === 0 || !html.includes(APP_ROOT))
          throw new Error('index.html has no stylesheet link or no app root to put it before.');
        const moved = links.reduce((page, link) => page.replace(link, ''), html);
        return moved.replace(APP_ROOT, `${links.map((link) => `${link.trim()}\n    `).join('')}${APP_ROOT}`);
      },
    },
  };
}

/**
 * Names the app's own files (src/client/start.tsx, which the entry imports once React is evaluated)
 * as module preloads in index.html, beside the entry's: they are fetched with the entry, not after
 * it — in every copy of the page, the service worker's included.
 */
function preloadApp(): Plugin {
  return {
    name: 'bodega:preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).filter((output) => output.type === 'chunk');
        const app = chunks.find((chunk) => chunk.facadeModuleId?.endsWith('/src/client/start.tsx'));
        if (!app) throw new Error('The build has no chunk for src/client/start.tsx.');
        const named = new Set([...html.matchAll(/ (?:src|href)="\/([^"]+)"/g)].map((found) => found[1]));
        const links = [app.fileName, ...app.imports]
          .filter((file) => !named.has(file))
          .map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`)
          .join('');
        return html.replace(/\n\s*<\/head>/, `\n${links}  </head>`);
      },
    },
  };
}

/** The build's id: the kept session's buster (app.tsx), the same in the app and in the kept look's script. */
const BUILD_ID = JSON.stringify(new Date().toISOString());

/**
 * Builds the kept look's script (src/client/kept-look-start.ts, lib/kept-look.ts) apart from the
 * app, as one small classic script (`/kept-look.js`), and names it just after the app's stylesheet,
 * before the app's root: it runs as the page is read, once the stylesheet is in, before the app's
 * code is evaluated — and shares no file with the app, so it loads nothing else.
 */
function keptLookScript(): Plugin {
  const file = 'kept-look.js';
  return {
    name: 'bodega:kept-look-script',
    apply: 'build',
    async generateBundle() {
      const built = await rolldownBuild({
        input: 'src/client/kept-look-start.ts',
        write: false,
        transform: { define: { __BUILD_ID__: BUILD_ID } },
        output: { format: 'iife', minify: true },
      });
      const [script, ...more] = built.output;
      if (script.type !== 'chunk' || more.some((output) => output.type === 'chunk'))
        throw new Error("The kept look's script is not one file.");
      this.emitFile({ type: 'asset', fileName: file, source: script.code });
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html) => html.replace(APP_ROOT, `<script src="/${file}"></script>\n    ${APP_ROOT}`),
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    stylesheetAfterFirstLook(),
    keptLookScript(),
    preloadApp(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // The app registers the worker itself (src/client/lib/service-worker.ts) and prompts to update.
      injectRegister: false,
      registerType: 'prompt',
      injectManifest: { globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,wasm}'] },
      manifest: {
        name: 'Bodega — back office',
        short_name: 'Bodega',
        description: 'Inventory, purchasing, sales and logistics for the staff of Philippine businesses.',
        theme_color: '#0f766e',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/pwa-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/pwa-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
    precompress('dist'),
  ],
  define: {
    // Busts the persisted session cache whenever a new build ships.
    __BUILD_ID__: BUILD_ID,
  },
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/logout': 'http://127.0.0.1:3000' } },
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      input: { index: 'index.html', start: 'src/client/start.tsx' },
      output: {
        // Fewer, larger files for a first screen: a phone on plain http fetches six at a time, each
        // costing a round trip. React and the framework go in one file, evaluated first; everything
        // else the app's start imports (start.tsx, a second input so that its imports count as
        // initial) in another, evaluated in a task of its own (main.tsx); the icons in a third.
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|tailwind-merge|clsx)[\\/]|preload-helper|modulepreload-polyfill/,
              priority: 3,
            },
            { name: 'app', tags: ['$initial'], test: (id) => !/src[\\/]client[\\/]main\.tsx|\.html|\.css$/.test(id), priority: 2 },
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
