import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Session, type TestApp } from '../../tests/support/test-app';
import { FIRST_SCREEN_MODULES, firstLookOf } from '../domain/first-screens';
import { withFirstLook } from './client-page';

/** A navigation's page names the files of the screen its address opens, from the build's manifest. */
describe('the page a navigation gets', () => {
  let test: TestApp;
  let clientDir: string;
  let admin: Session;
  const index = [
    '<!doctype html><html><head><title>Bodega</title>',
    '<script type="module" crossorigin src="/assets/index-e1.js"></script>',
    '<link rel="modulepreload" crossorigin href="/assets/react-r1.js">',
    '</head><body><div id="first-look"><!--first-look--><p>Loading Bodega…</p><!--/first-look--></div>',
    '<template id="first-look-counter"><h1>Counter</h1></template>',
    '</body></html>',
  ].join('\n');
  // As Vite writes it: the entry (index.html) and its imports, the screens as dynamic entries.
  const manifest = {
    'index.html': { file: 'assets/index-e1.js', imports: ['_react-r1.js'] },
    '_react-r1.js': { file: 'assets/react-r1.js' },
    '_money-m1.js': { file: 'assets/money-m1.js', imports: ['_react-r1.js'] },
    '_input-i1.js': { file: 'assets/input-i1.js', imports: ['index.html', '_money-m1.js'] },
    'src/client/features/counter/counter-screen.tsx': {
      file: 'assets/counter-screen-c1.js',
      imports: ['index.html', '_react-r1.js', '_input-i1.js', '_money-m1.js'],
    },
    'src/client/screen-parts.tsx': { file: 'assets/screen-parts-p1.js', imports: ['index.html'] },
    'src/client/components/crud/list-screen.tsx': { file: 'assets/list-screen-l1.js', imports: ['_input-i1.js'] },
  };

  beforeAll(async () => {
    clientDir = mkdtempSync(join(tmpdir(), 'bodega-client-'));
    mkdirSync(join(clientDir, '.vite'));
    writeFileSync(join(clientDir, 'index.html'), index);
    writeFileSync(join(clientDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
    test = await startTestApp('sqlite', { clientDir });
    admin = await test.signIn('admin@example.com');
  });
  afterAll(async () => {
    await test?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const navigate = (url: string, encoding?: string) =>
    test.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(encoding ? { 'accept-encoding': encoding } : {}) } });
  const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);

  it('knows the first screens by source modules that exist, as the build’s manifest names them', () => {
    for (const module of FIRST_SCREEN_MODULES) expect(existsSync(module), module).toBe(true);
  });

  it('names the counter’s chunk and the chunks it imports that the entry does not, once each', async () => {
    const counter = await navigate('/counter?from=menu');
    expect(counter.statusCode).toBe(200);
    expect(counter.headers['content-type']).toMatch(/^text\/html/);
    expect(counter.headers['cache-control']).toBe('no-cache');
    expect(preloads(counter.body)).toEqual([
      '/assets/react-r1.js',
      '/assets/counter-screen-c1.js',
      '/assets/input-i1.js',
      '/assets/money-m1.js',
    ]);
  });

  it('names both parts of a list screen, and nothing extra where the address opens no screen of its own', async () => {
    expect(preloads((await navigate('/brands')).body)).toEqual([
      '/assets/react-r1.js',
      '/assets/screen-parts-p1.js',
      '/assets/list-screen-l1.js',
      '/assets/input-i1.js',
      '/assets/money-m1.js',
    ]);
    const edit = await navigate('/brands/1/edit');
    expect(edit.statusCode).toBe(200);
    expect(edit.body).toBe(withFirstLook(index, null));
  });

  it('is sent compressed as the browser accepts, and saying it varies by that', async () => {
    const brotli = await navigate('/counter', 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(String(brotli.headers.vary)).toMatch(/accept-encoding/i);
    const gzip = await navigate('/counter', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await navigate('/counter');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(preloads(plain.body)).toContain('/assets/counter-screen-c1.js');
  });

  const FETCH_METADATA = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
  /** What the page says of who is signed in: a user, null (nobody), or undefined where it says nothing. */
  const userIn = (html: string) => {
    const found = /<script type="application\/json" id="signed-in-user">(.*?)<\/script>/.exec(html);
    return found ? (JSON.parse(found[1]) as Record<string, unknown> | null) : undefined;
  };

  it('carries the signed-in user to a navigation, as /api/auth/user answers, stored by nobody', async () => {
    const page = await test.app.inject({ method: 'GET', url: '/counter', headers: { ...FETCH_METADATA, cookie: admin.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(String(page.headers.vary)).toMatch(/cookie/i);
    expect(preloads(page.body)).toContain('/assets/counter-screen-c1.js');
    const answered = await test.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: admin.cookie } });
    expect(userIn(page.body)).toEqual(answered.json());
    expect(userIn(page.body)).toMatchObject({ email: 'admin@example.com', business_id: admin.businessId });
  });

  it('draws the counter’s own first look to a signed-in navigation to it, and the loading look to anyone else', async () => {
    const look = (html: string) => /<!--first-look-->(.*?)<!--\/first-look-->/.exec(html)?.[1];
    const signedIn = await test.app.inject({ method: 'GET', url: '/counter', headers: { ...FETCH_METADATA, cookie: admin.cookie } });
    expect(look(signedIn.body)).toBe('<h1>Counter</h1>');
    const signedOut = await test.app.inject({ method: 'GET', url: '/counter', headers: FETCH_METADATA });
    expect(look(signedOut.body)).toBe('<p>Loading Bodega…</p>');
    const list = await test.app.inject({ method: 'GET', url: '/brands', headers: { ...FETCH_METADATA, cookie: admin.cookie } });
    expect(look(list.body)).toBe('<p>Loading Bodega…</p>');
    for (const page of [signedIn, signedOut, list]) expect(page.body).not.toContain('<template');
  });

  it('says nothing of anyone to a fetch (the service worker’s copy), nobody to a signed-out or ended session, and no name that could end the script', async () => {
    const fetched = await test.app.inject({
      method: 'GET',
      url: '/counter',
      headers: { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', cookie: admin.cookie },
    });
    expect(userIn(fetched.body)).toBeUndefined();
    expect(fetched.headers['cache-control']).toBe('no-cache');
    const signedOut = await test.app.inject({ method: 'GET', url: '/counter', headers: FETCH_METADATA });
    expect(userIn(signedOut.body)).toBeNull();
    // What it says depends on the cookie: nobody stores it, and a cache keeps it apart by cookie.
    expect(signedOut.headers['cache-control']).toBe('no-store');
    expect(String(signedOut.headers.vary)).toMatch(/cookie/i);
    const unknown = await test.app.inject({
      method: 'GET',
      url: '/counter',
      headers: { ...FETCH_METADATA, cookie: 'bodega_session=not-a-session' },
    });
    expect(userIn(unknown.body)).toBeNull();

    await test.app.db
      .updateTable('users')
      .set({ name: 'Ana </script><script>alert(1)</script>' })
      .where('email', '=', 'admin@example.com')
      .execute();
    const page = await test.app.inject({ method: 'GET', url: '/brands/1/edit', headers: { ...FETCH_METADATA, cookie: admin.cookie } });
    expect(page.body.match(/<\/script>/g)).toHaveLength(2);
    expect(userIn(page.body)).toMatchObject({ name: 'Ana </script><script>alert(1)</script>' });
  });

  it('is still the page when the user cannot be read: the app then asks the API, which says why', async () => {
    await sql`alter table role_permissions rename to role_permissions_away`.execute(test.app.db);
    try {
      const page = await test.app.inject({ method: 'GET', url: '/counter', headers: { ...FETCH_METADATA, cookie: admin.cookie } });
      expect(page.statusCode).toBe(200);
      expect(userIn(page.body)).toBeUndefined();
      expect(preloads(page.body)).toContain('/assets/counter-screen-c1.js');
    } finally {
      await sql`alter table role_permissions_away rename to role_permissions`.execute(test.app.db);
    }
  });
});

describe('the first look a page draws', () => {
  const index = [
    '<html><head></head><body>',
    '<div id="first-look"><!--first-look--><p>Loading Bodega…</p><!--/first-look--></div>',
    '<template id="first-look-counter"><h1>Counter</h1><p>Total ₱0.00 $&</p></template>',
    '<template id="first-look-overview"><h1>Overview</h1></template>',
    '</body></html>',
  ].join('\n');

  it('is the screen’s own where index.html holds one, as written, and no template is sent', () => {
    expect(firstLookOf('/counter')).toBe('counter');
    expect(withFirstLook(index, firstLookOf('/counter'))).toBe(
      '<html><head></head><body>\n<div id="first-look"><!--first-look--><h1>Counter</h1><p>Total ₱0.00 $&</p><!--/first-look--></div>\n</body></html>',
    );
  });

  it('is the app’s loading look for any other screen, or a screen index.html holds no look of', () => {
    expect(firstLookOf('/brands')).toBeNull();
    const loading =
      '<html><head></head><body>\n<div id="first-look"><!--first-look--><p>Loading Bodega…</p><!--/first-look--></div>\n</body></html>';
    expect(withFirstLook(index, null)).toBe(loading);
    expect(withFirstLook(index, 'stocks')).toBe(loading);
  });

  it('is the counter’s in the index.html the build starts from, between the markers the server looks for', () => {
    const source = readFileSync('index.html', 'utf8');
    const counter = withFirstLook(source, 'counter');
    expect(counter).not.toContain('<template');
    expect(counter).not.toContain('Loading Bodega…');
    expect(counter).toMatch(
      /<div id="first-look">\s*<!--first-look-->[\s\S]*Scan a barcode, or type a name[\s\S]*<!--\/first-look-->\s*<\/div>/,
    );
  });
});
