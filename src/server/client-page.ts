import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { firstLookOf, firstScreenModules, SIGNED_IN_USER_ELEMENT } from '../domain/first-screens';
import { SESSION_COOKIE, sessionUserId } from './plugins/auth';
import { firstBusinessProfile } from './routes/auth.routes';

/**
 * The built web app: its files, and the page every navigation gets. That page is the built
 * index.html, naming the built files of the screen the address opens (domain/first-screens.ts) as
 * module preloads, so the browser fetches them while it fetches the entry rather than once the
 * entry has been evaluated and asks for them — on a phone, most of a second later. Each such page
 * is made once, at start, with its brotli and gzip copies. Where index.html holds a first look of
 * the screen's own (domain/first-screens.ts), the page to a signed-in navigation draws it in place
 * of the app's loading look; the first looks of other screens are left out. Without the build's manifest (a client built some
 * other way) the page is index.html as it is.
 *
 * To a browser navigating with a live session, the page also carries the signed-in user as
 * `GET /api/auth/user` would answer (their first business), so the first screen does not wait a
 * round trip for it (client/lib/early-user.ts); to one navigating with no session (none sent, or
 * one that has ended) it carries `null`, so the app shows the sign-in without asking and being
 * refused. Only a navigation gets either — never a fetch, so the service worker's copy of
 * index.html says nothing of anyone — and such a page is never stored by anyone.
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

/** The built files a chunk needs besides those index.html names itself: its file and its imports', once each. */
function filesOf(manifest: Manifest, key: string, named: ReadonlySet<string>, into: Set<string>): void {
  const chunk = manifest[key];
  if (!chunk || named.has(chunk.file) || into.has(chunk.file)) return;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) filesOf(manifest, imported, named, into);
}

/** The built files index.html loads or preloads itself (the entry, React, the app: vite.config.ts). */
const namedFiles = (index: string) => new Set([...index.matchAll(/ (?:src|href)="\/(assets\/[^"]+)"/g)].map((found) => found[1]));

/** Where index.html draws its first look, in an element of its own beside the app's root. */
const FIRST_LOOK = /<!--first-look-->[\s\S]*?<!--\/first-look-->/;
/** The first looks of screens index.html holds, each a template. */
const FIRST_LOOK_TEMPLATES = /\s*<template id="first-look-[\w-]+">[\s\S]*?<\/template>/g;

/** index.html drawing the first look named `look` (its loading look where it holds none of that name), with no templates. */
export function withFirstLook(index: string, look: string | null): string {
  const template = look === null ? null : new RegExp(`<template id="first-look-${look}">([\\s\\S]*?)</template>`).exec(index);
  const drawn = template ? index.replace(FIRST_LOOK, () => `<!--first-look-->${template[1]}<!--/first-look-->`) : index;
  return drawn.replace(FIRST_LOOK_TEMPLATES, '');
}

const page = (text: string): ClientPage => {
  const html = Buffer.from(text);
  return { html, br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), gzip: gzipSync(html, { level: 9 }) };
};

/**
 * The pages of the client built in `clientDir`, by the first screen's modules and first look (for a signed-in navigation);
 * `pageFor(path)` answers null where index.html as built is the page (no manifest).
 */
function clientPages(clientDir: string): { index: Buffer; pageFor(path: string, signedIn: boolean): ClientPage | null } {
  const index = readFileSync(join(clientDir, 'index.html'), 'utf8');
  const manifestPath = join(clientDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) return { index: Buffer.from(index), pageFor: () => null };
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const named = namedFiles(index);
  const made = new Map<string, ClientPage>();
  return {
    index: Buffer.from(index),
    pageFor(path, signedIn) {
      const modules = firstScreenModules(path);
      // A screen's look for those it opens to; to anyone else the sign-in comes next, not the screen.
      const look = signedIn ? firstLookOf(path) : null;
      const key = `${modules.join(' ')}|${look}`;
      if (!made.has(key)) {
        const files = new Set<string>();
        for (const module of modules) filesOf(manifest, module, named, files);
        const links = [...files].map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`).join('');
        const html = withFirstLook(index, look);
        made.set(key, page(links === '' ? html : html.replace('</head>', `${links}  </head>`)));
      }
      return made.get(key)!;
    },
  };
}

/** Hashed build files never change; everything else must be checked, or updates never arrive. */
function cacheHeaders(reply: FastifyReply, path: string): void {
  reply.header('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/** JSON that cannot end the script element it is in, nor a line of it. */
const scriptSafeJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** A browser's top-level navigation (not a fetch, not a frame): only browsers that say so, over Fetch Metadata. */
const isNavigation = (request: FastifyRequest) =>
  request.headers['sec-fetch-mode'] === 'navigate' && request.headers['sec-fetch-dest'] === 'document';

/** The built PWA: its files as built, and the page for every navigation; unknown /api paths stay JSON 404s. */
export function serveClient(app: FastifyInstance, clientDir: string | undefined): void {
  const hasClient = clientDir !== undefined && existsSync(join(clientDir, 'index.html'));
  // The build holds a brotli and a gzip copy of each text file: the one the browser accepts is sent as it is.
  if (hasClient)
    void app.register(fastifyStatic, { root: clientDir, wildcard: false, index: false, preCompressed: true, setHeaders: cacheHeaders });
  const pages = hasClient ? clientPages(clientDir) : null;
  app.setNotFoundHandler(async (request, reply) => {
    if (!pages || request.url.startsWith('/api/') || request.method !== 'GET') {
      return reply.status(404).send({ message: `No route for ${request.method} ${request.url.split('?')[0]}.` });
    }
    const user = isNavigation(request) ? await signedInUser(app, request) : UNKNOWN;
    const page = pages.pageFor(request.url.split('?')[0], user !== null && user !== UNKNOWN);
    if (user !== UNKNOWN) {
      const html = (page?.html ?? pages.index).toString();
      const element = `    <script type="application/json" id="${SIGNED_IN_USER_ELEMENT}">${scriptSafeJson(user)}</script>\n`;
      // Compressed as it goes (@fastify/compress): it is made for this one answer.
      return reply
        .header('cache-control', 'no-store')
        .header('vary', 'cookie, accept-encoding')
        .type('text/html; charset=utf-8')
        .send(html.replace('</head>', `${element}  </head>`));
    }
    reply.header('cache-control', 'no-cache');
    return page ? sendPage(request, reply, page) : reply.sendFile('index.html');
  });
}

/** Who is signed in is not known: the page says nothing of it, and the app asks `GET /api/auth/user`. */
const UNKNOWN = Symbol('unknown');

/**
 * The signed-in user for the page; null when the navigation has no session (none sent, or one
 * that has ended); UNKNOWN when the session cannot be read now — then the page goes without, and
 * the app asks `GET /api/auth/user`, which answers whatever went wrong in words. The page itself
 * never fails over it.
 */
async function signedInUser(app: FastifyInstance, request: FastifyRequest): Promise<Record<string, unknown> | null | typeof UNKNOWN> {
  try {
    const userId = await sessionUserId(app.db, request.cookies[SESSION_COOKIE]);
    return userId === null ? null : await firstBusinessProfile(app.db, userId);
  } catch (error) {
    request.log.warn({ err: error }, 'The signed-in user was left out of the page.');
    return UNKNOWN;
  }
}

/** A page made at start, in the encoding the browser accepts (compressed already: @fastify/compress leaves it). */
function sendPage(request: FastifyRequest, reply: FastifyReply, page: ClientPage): FastifyReply {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const [encoding, body] = /\bbr\b/.test(accepted) ? ['br', page.br] : /\bgzip\b/.test(accepted) ? ['gzip', page.gzip] : [null, page.html];
  reply.header('vary', 'accept-encoding').type('text/html; charset=utf-8');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(body);
}
