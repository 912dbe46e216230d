import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listening, openEventStream, resourcesOf, sessionHeaders, type EventStreamReader } from '../../../tests/support/event-stream';
import { databaseKinds, startDemo, userWithPermissions, type Session, type TestApp } from '../../../tests/support/test-app';

/**
 * Live updates (`GET /api/sync/events`), read over real HTTP as a device reads them: a change made
 * by someone else reaches a listening device as `changed` within 2 s — through the app itself,
 * through a reverse proxy that streams, and (PostgreSQL) from another instance on the same
 * database; nothing of another business, nothing the user may not view; the answer is never held
 * back by compression, is kept open by a comment every 20 s, ends when its session signs out, and
 * ends when the app closes, without holding the close up.
 */

/** Within this a change must reach a listening device. */
const LIVE_MS = 2000;
/** What the listening clerk views: not contacts. */
const VIEWS = ['view-items', 'view-brands', 'view-stocks', 'view-branches', 'view-warehouses'];

/** A reverse proxy that hands each answer on as it comes, as nginx does with `proxy_buffering off`. */
async function streamingProxy(target: string): Promise<{ base: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host, 'x-forwarded-for': incoming.socket.remoteAddress ?? '' },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        outgoing.flushHeaders();
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    outgoing.on('close', () => forwarded.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(databaseKinds)('live updates on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businesses: [number, number];
  let base: string;
  let clerk: Session;
  /** Opened first: by the last tests it has been open 20 s, and had its keep-alive. */
  let early: EventStreamReader;
  let earlyOpenedAt: number;
  /** A stream whose session signs out at once: it ends at its next look, within 20 s. */
  let signedOut: EventStreamReader;
  let closed = false;
  const streams: EventStreamReader[] = [];

  const listen = async (session: Session, at = base, headers: Record<string, string> = {}) => {
    const stream = await openEventStream(at, '/api/sync/events', { ...sessionHeaders(session), ...headers });
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.next((event) => event.event === 'ready');
    return stream;
  };

  /** An item renamed by the admin; resolves to when the change was sent (it may be announced before its answer is read). */
  const renameItem = async (by: Session = admin) => {
    const item = (await by.send('GET', '/api/items?limit=1&order_by=asc')).body.data[0];
    const sent = performance.now();
    const renamed = await by.send('PATCH', `/api/items/${item.id}`, { name: `${item.name.replace(/ \(\d+\)$/, '')} (${Date.now()})` });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    return sent;
  };

  const changedWith = (resource: string) => (event: { event: string; data: string }) =>
    event.event === 'changed' && JSON.parse(event.data).resources.includes(resource);

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo(kind));
    base = await listening(test.app);
    clerk = (await userWithPermissions(test, businesses[0], VIEWS)).session;
    earlyOpenedAt = performance.now();
    early = await listen(clerk);
    const leaving = (await userWithPermissions(test, businesses[0], VIEWS)).session;
    signedOut = await listen(leaving);
    const out = await test.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie: leaving.cookie, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(out.statusCode).toBe(204);
  }, 60_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    if (!closed) await test.close();
  });

  it('answers an event stream, never compressed or buffered though gzip and brotli are accepted, ready first', async () => {
    const stream = await openEventStream(base, '/api/sync/events', { ...sessionHeaders(clerk), 'accept-encoding': 'gzip, br' });
    streams.push(stream);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-cache, no-transform');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['content-encoding']).toBeUndefined();
    // The app's own headers still go out on it.
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    // Ready arrives while the answer stays open: nothing waits for a compressed block to fill.
    const ready = await stream.next(() => true, { timeoutMs: LIVE_MS });
    expect(ready).toEqual(expect.objectContaining({ event: 'ready', data: '{}' }));
    expect(stream.isEnded()).toBe(false);
    const at = stream.events.length;
    const changedAt = await renameItem();
    const changed = await stream.next(changedWith('items'), { from: at, timeoutMs: LIVE_MS });
    expect(changed.at - changedAt).toBeLessThan(LIVE_MS);
    stream.close();
  });

  it('tells a listening device within 2 s that items changed when another user changes one', async () => {
    const figures: number[] = [];
    for (let round = 0; round < 5; round++) {
      const at = early.events.length;
      const changedAt = await renameItem();
      const changed = await early.next(changedWith('items'), { from: at, timeoutMs: LIVE_MS });
      figures.push(Math.round(changed.at - changedAt));
    }
    console.log(`${kind}: an item's change reached a listening device in ${figures.join(', ')} ms`);
    for (const figure of figures) {
      // Not an announcement of something earlier: it came after the change was sent, and soon.
      expect(figure).toBeGreaterThanOrEqual(0);
      expect(figure).toBeLessThan(LIVE_MS);
    }
    // A document moving stock tells of its stock rows too.
    const at = early.events.length;
    const item = (await admin.send('GET', '/api/items?limit=1&order_by=asc')).body.data[0];
    const branch = (await admin.send('GET', '/api/branches?limit=1&order_by=asc')).body.data[0];
    const adjusted = await admin.send('POST', '/api/stock-adjustments', {
      branch_id: branch.id,
      date: '2026-11-20',
      lines: [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 3, reason: 'found' }],
    });
    expect(adjusted.status, JSON.stringify(adjusted.body)).toBe(201);
    await early.next(changedWith('stocks'), { from: at, timeoutMs: LIVE_MS });
  });

  it('says nothing of another business’s changes, nor of resources the user may not view', async () => {
    const at = early.events.length;
    const brand = await admin.inBusiness(businesses[1]).send('POST', '/api/brands', { name: `Elsewhere ${kind}`, description: null });
    expect(brand.status, JSON.stringify(brand.body)).toBe(201);
    const contact = (await admin.send('GET', '/api/contacts?limit=1&order_by=asc')).body.data[0];
    const renamed = await admin.send('PATCH', `/api/contacts/${contact.id}`, { name: `${contact.name} ${kind}` });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    // The admin, who views everything, hears of the contact; then an item of the clerk's business marks the end.
    await renameItem();
    await early.next(changedWith('items'), { from: at, timeoutMs: LIVE_MS });
    const heard = early.events.slice(at).filter((event) => event.event === 'changed');
    for (const event of heard) expect(resourcesOf(event)).toEqual(['items']);
    // The brand was in the other business: the clerk's brands never changed.
    expect(heard.flatMap(resourcesOf)).not.toContain('brands');
  });

  it('answers the admin, who views everything, of contacts too, and refuses a caller without a session or business', async () => {
    const stream = await listen(admin);
    const contact = (await admin.send('GET', '/api/contacts?limit=1&order_by=asc')).body.data[0];
    expect((await admin.send('PATCH', `/api/contacts/${contact.id}`, { mobile: '09171234567' })).status).toBe(200);
    await stream.next(changedWith('contacts'), { timeoutMs: LIVE_MS });
    stream.close();

    const anonymous = await openEventStream(base, '/api/sync/events', { 'business-id': String(businesses[0]) });
    expect(anonymous.status).toBe(401);
    const noBusiness = await openEventStream(base, '/api/sync/events', { cookie: clerk.cookie });
    expect(noBusiness.status).toBe(403);
    const elsewhere = await openEventStream(base, '/api/sync/events', { ...sessionHeaders(clerk), 'business-id': String(businesses[1]) });
    expect(elsewhere.status).toBe(403);
    for (const refused of [anonymous, noBusiness, elsewhere]) await refused.ended;
    // HEAD says what the answer would be, and ends.
    const head = await test.app.inject({ method: 'HEAD', url: '/api/sync/events', headers: sessionHeaders(clerk) });
    expect([head.statusCode, head.headers['content-type'], head.body]).toEqual([200, 'text/event-stream; charset=utf-8', '']);
  });

  it('reaches a device through a reverse proxy that streams', async () => {
    const proxy = await streamingProxy(base);
    try {
      const stream = await listen(clerk, proxy.base, { 'accept-encoding': 'gzip, br' });
      const changedAt = await renameItem();
      const changed = await stream.next(changedWith('items'), { timeoutMs: LIVE_MS });
      console.log(`${kind}: through the proxy in ${Math.round(changed.at - changedAt)} ms`);
      expect(changed.at - changedAt).toBeLessThan(LIVE_MS);
      stream.close();
    } finally {
      await proxy.close();
    }
  });

  // Two instances share a database on PostgreSQL only: SQLite in memory is one process's.
  if (kind === 'postgres')
    it('tells a device listening to one instance of a change made through another', async () => {
      const twin = await test.secondInstance();
      try {
        const twinBase = await listening(twin.app);
        const stream = await listen(twin.on(clerk), twinBase);
        const proxied = await streamingProxy(twinBase);
        const throughProxy = await listen(twin.on(clerk), proxied.base);
        const figures: number[] = [];
        for (let round = 0; round < 3; round++) {
          const from = stream.events.length;
          const changedAt = await renameItem();
          const changed = await stream.next(changedWith('items'), { from, timeoutMs: LIVE_MS });
          figures.push(Math.round(changed.at - changedAt));
        }
        await throughProxy.next(changedWith('items'), { timeoutMs: LIVE_MS });
        console.log(`${kind}: a change through instance A reached a device on instance B in ${figures.join(', ')} ms`);
        for (const figure of figures) {
          // Not an announcement of something earlier: it came after the change was sent, and soon.
          expect(figure).toBeGreaterThanOrEqual(0);
          expect(figure).toBeLessThan(LIVE_MS);
        }
        // And the other way: a change through the second instance reaches the first's listener.
        const from = early.events.length;
        await renameItem(twin.on(admin));
        await early.next(changedWith('items'), { from, timeoutMs: LIVE_MS });
        stream.close();
        throughProxy.close();
        await proxied.close();
      } finally {
        await twin.close();
      }
    });

  it('keeps the stream open with a comment every 20 s, and ends a stream whose session signed out', async () => {
    const wait = 20_500 - (performance.now() - earlyOpenedAt);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    expect(early.comments).toContain('keep-alive');
    expect(early.isEnded()).toBe(false);
    await Promise.race([signedOut.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('still open')), 2000))]);
    expect(signedOut.events.filter((event) => event.event === 'changed').length).toBeGreaterThan(0);
  }, 30_000);

  it('ends every open stream when the app closes, and the close does not wait for them', async () => {
    const open = [early, await listen(clerk), await listen(admin)];
    const started = performance.now();
    await test.app.close();
    const took = performance.now() - started;
    console.log(`${kind}: the app closed in ${Math.round(took)} ms with ${open.length} streams open`);
    expect(took).toBeLessThan(2000);
    for (const stream of open) {
      await stream.ended;
      expect(stream.isEnded()).toBe(true);
    }
    expect(test.errorLines).toEqual([]);
    closed = true;
    await test.close();
  });
});
