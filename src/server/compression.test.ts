import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Session, type TestApp } from '../../tests/support/test-app';

/** What goes over the wire: the built client's text compressed once at build, API answers over 1 kB as asked. */
describe('compression', () => {
  let test: TestApp;
  let admin: Session;
  let clientDir: string;
  // Text that compresses, like a built chunk.
  const chunk = Buffer.from(
    `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, id) => ({ id, name: `Item ${id}` })))};\n`,
  );
  const page = Buffer.from(
    `<!doctype html><html><head><title>Bodega</title></head><body>${'<div id="root"></div>'.repeat(80)}</body></html>`,
  );

  beforeAll(async () => {
    // A built client as the Vite build leaves it: each text file with its .br and .gz beside it.
    clientDir = mkdtempSync(join(tmpdir(), 'bodega-client-'));
    mkdirSync(join(clientDir, 'assets'));
    for (const [name, body] of [
      ['assets/app-abc123.js', chunk],
      ['index.html', page],
    ] as const) {
      writeFileSync(join(clientDir, name), body);
      writeFileSync(join(clientDir, `${name}.br`), brotliCompressSync(body));
      writeFileSync(join(clientDir, `${name}.gz`), gzipSync(body));
    }
    test = await startTestApp('sqlite', { clientDir });
    admin = await test.signIn('admin@example.com');
  });
  afterAll(async () => {
    await test?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string, headers: Record<string, string> = {}) =>
    test.app.inject({ method: 'GET', url, headers: { ...(encoding ? { 'accept-encoding': encoding } : {}), ...headers } });

  it('sends a built file as its brotli or gzip copy, as the browser accepts, and says it varies by that', async () => {
    const brotli = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(String(brotli.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(brotli.rawPayload).equals(chunk)).toBe(true);
    expect(brotli.rawPayload.length).toBeLessThan(chunk.length / 4);

    const gzip = await get('/assets/app-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(chunk)).toBe(true);

    const plain = await get('/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    expect(plain.rawPayload.equals(chunk)).toBe(true);
  });

  it('sends the app shell to a navigation compressed too, never cached unchecked', async () => {
    const shell = await get('/items', 'br', { accept: 'text/html' });
    expect(shell.statusCode).toBe(200);
    expect(shell.headers['cache-control']).toBe('no-cache');
    const body = shell.headers['content-encoding'] === 'br' ? brotliDecompressSync(shell.rawPayload) : shell.rawPayload;
    expect(body.equals(page)).toBe(true);
    expect(shell.headers['content-encoding']).toBe('br');
  });

  it('compresses an API answer over 1 kB as asked, and leaves a small one as it is', async () => {
    const raw = await test.app.inject({
      method: 'GET',
      url: '/api/items?per_page=100',
      headers: {
        cookie: admin.cookie,
        'business-id': String(admin.businessId),
        'x-requested-with': 'XMLHttpRequest',
        'accept-encoding': 'br',
      },
    });
    expect(raw.headers['content-encoding']).toBe('br');
    expect(String(raw.headers.vary)).toMatch(/accept-encoding/i);
    const json = JSON.parse(brotliDecompressSync(raw.rawPayload).toString('utf8'));
    expect(json.data.length).toBeGreaterThan(10);
    expect(raw.rawPayload.length).toBeLessThan(Buffer.byteLength(JSON.stringify(json)) / 3);

    const health = await get('/api/health', 'br');
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ status: 'ok' });
  });
});
