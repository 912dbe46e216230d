import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { firstScreenModules } from '../domain/first-screens';

/**
 * The page a navigation gets: the built index.html, naming the built files of the screen the
 * address opens (domain/first-screens.ts) as module preloads, so the browser fetches them while it
 * fetches the entry rather than once the entry has been evaluated and asks for them — on a phone,
 * most of a second later. Each such page is made once, at start, with its brotli and gzip copies.
 * Without the build's manifest (a client built some other way) the page is index.html as it is.
 */

/** One variant of the page, as sent. */
export interface ClientPage {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

type Manifest = Record<string, ManifestChunk>;

/** The built files a chunk needs besides the entry's own (which index.html names already): its file and its imports', once each. */
function filesOf(manifest: Manifest, key: string, entry: ReadonlySet<string>, into: Set<string>): void {
  const chunk = manifest[key];
  if (!chunk || entry.has(key) || into.has(chunk.file)) return;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) filesOf(manifest, imported, entry, into);
}

/** The entry chunk and every chunk it imports: what index.html loads or preloads itself. */
function entryChunks(manifest: Manifest): Set<string> {
  const keys = new Set<string>();
  const visit = (key: string) => {
    if (keys.has(key) || !manifest[key]) return;
    keys.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  visit('index.html');
  return keys;
}

const page = (text: string): ClientPage => {
  const html = Buffer.from(text);
  return { html, br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), gzip: gzipSync(html, { level: 9 }) };
};

/**
 * The pages of the client built in `clientDir`, by the first screen's modules; `pageFor(path)`
 * answers null where index.html as built is the page (no manifest, or no screen of its own).
 */
export function clientPages(clientDir: string): { pageFor(path: string): ClientPage | null } {
  const manifestPath = join(clientDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) return { pageFor: () => null };
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const index = readFileSync(join(clientDir, 'index.html'), 'utf8');
  const entry = entryChunks(manifest);
  const made = new Map<string, ClientPage | null>();
  return {
    pageFor(path) {
      const modules = firstScreenModules(path);
      const key = modules.join(' ');
      if (!made.has(key)) {
        const files = new Set<string>();
        for (const module of modules) filesOf(manifest, module, entry, files);
        const links = [...files].map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`).join('');
        made.set(key, links === '' || !index.includes('</head>') ? null : page(index.replace('</head>', `${links}  </head>`)));
      }
      return made.get(key)!;
    },
  };
}
