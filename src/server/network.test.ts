import { rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate, type Certificate } from '../../tests/support/certificate';
import { ADMIN_EMAIL, databaseKinds, PASSWORD, startTestApp, type TestApp } from '../../tests/support/test-app';

const xhr = { 'x-requested-with': 'XMLHttpRequest' };

type Headers = Record<string, string | string[] | number | undefined>;

/** The CSP as a set of directive names, and whether the browser is told to stay on https. */
function transportHeaders(headers: Headers) {
  const csp = String(headers['content-security-policy']);
  return {
    directives: csp.split(';').map((directive) => directive.trim().split(' ')[0]),
    csp,
    hsts: headers['strict-transport-security'],
  };
}

const sessionCookie = (headers: Headers) => String(headers['set-cookie']);

describe.each(databaseKinds)('served on a shop network (plain http, https, behind a proxy) on %s', (kind) => {
  let direct: TestApp;
  let firstHop: TestApp;
  let listed: TestApp;

  beforeAll(async () => {
    // A low sign-in limit shows which address the limit counts.
    direct = await startTestApp(kind, { demoData: false, loginAttemptsPerMinute: 3 });
    firstHop = await startTestApp(kind, { demoData: false, loginAttemptsPerMinute: 3, trustProxy: 1 });
    listed = await startTestApp(kind, { demoData: false, loginAttemptsPerMinute: 3, trustProxy: ['10.0.0.1', '192.168.50.0/24'] });
  });
  afterAll(async () => {
    await direct?.close();
    await firstHop?.close();
    await listed?.close();
  });

  it('over plain http asks for no https: no upgrade-insecure-requests, no HSTS, the rest of the CSP kept', async () => {
    const page = await direct.app.inject({ method: 'GET', url: '/api/health', headers: { host: '192.168.1.20:3000' } });
    const { directives, csp, hsts } = transportHeaders(page.headers);
    expect(directives).not.toContain('upgrade-insecure-requests');
    expect(hsts).toBeUndefined();
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('believes X-Forwarded-Proto: https only from a trusted proxy: then HSTS, upgrade-insecure-requests and a Secure cookie', async () => {
    const viaProxy = { ...xhr, 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.168.1.31' };
    const login = (test: TestApp, remoteAddress?: string) =>
      test.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: ADMIN_EMAIL, password: PASSWORD },
        headers: viaProxy,
        remoteAddress,
      });

    const trusted = await login(firstHop);
    expect(trusted.statusCode).toBe(200);
    expect(transportHeaders(trusted.headers).directives).toContain('upgrade-insecure-requests');
    expect(transportHeaders(trusted.headers).hsts).toMatch(/^max-age=\d+/);
    expect(sessionCookie(trusted.headers)).toMatch(/; Secure/);

    const fromListedProxy = await login(listed, '192.168.50.7');
    expect(sessionCookie(fromListedProxy.headers)).toMatch(/; Secure/);
    expect(transportHeaders(fromListedProxy.headers).hsts).toBeDefined();

    for (const [test, remoteAddress] of [
      [direct, undefined],
      [listed, '192.168.1.31'],
    ] as const) {
      const untrusted = await login(test, remoteAddress);
      expect(untrusted.statusCode).toBe(200);
      expect(sessionCookie(untrusted.headers)).toContain('HttpOnly');
      expect(sessionCookie(untrusted.headers)).not.toMatch(/Secure/);
      expect(transportHeaders(untrusted.headers).directives).not.toContain('upgrade-insecure-requests');
      expect(transportHeaders(untrusted.headers).hsts).toBeUndefined();
    }
  });

  it('counts sign-in attempts by the address a trusted proxy forwards, and by the connection otherwise', async () => {
    const attempt = (test: TestApp, forwardedFor: string, remoteAddress?: string) =>
      test.app
        .inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'nobody@example.com', password: 'wrong-password' },
          headers: { ...xhr, 'x-forwarded-for': forwardedFor },
          remoteAddress,
        })
        .then((response) => response.statusCode);

    // The nearest proxy appends the client's address; what the client wrote before it is not believed.
    const fromOneTablet = [];
    for (const spoofed of ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'])
      fromOneTablet.push(await attempt(firstHop, `${spoofed}, 192.168.1.40`));
    expect(fromOneTablet).toEqual([401, 401, 401, 429]);
    expect(await attempt(firstHop, '192.168.1.41')).toBe(401);

    const throughListedProxy = [];
    for (let i = 0; i < 4; i++) throughListedProxy.push(await attempt(listed, '192.168.1.40', '10.0.0.1'));
    expect(throughListedProxy).toEqual([401, 401, 401, 429]);
    expect(await attempt(listed, '192.168.1.41', '10.0.0.1')).toBe(401);

    // A client that is no listed proxy, or any client when no proxy is trusted, is its own connection.
    for (const test of [listed, direct]) {
      const statuses = [];
      for (const forwardedFor of ['192.168.1.50', '192.168.1.51', '192.168.1.52', '192.168.1.53']) {
        statuses.push(await attempt(test, forwardedFor, '192.168.1.60'));
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    }
  });
});

describe.each(databaseKinds)('https of its own on %s', (kind) => {
  let certificate: Certificate;
  let test: TestApp;
  let port: number;

  beforeAll(async () => {
    certificate = selfSignedCertificate();
    test = await startTestApp(kind, { demoData: false, https: { key: certificate.key, cert: certificate.cert } });
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    port = (test.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await test?.close();
    if (certificate) rmSync(certificate.dir, { recursive: true, force: true });
  });

  /** One request over real TLS, trusting the throwaway certificate. */
  const overTls = (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; headers: Headers; body: string; encrypted: boolean }>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const request = httpsRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method,
          rejectUnauthorized: false,
          headers: payload ? { ...xhr, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
        },
        (response) => {
          const encrypted = response.socket instanceof TLSSocket && response.socket.encrypted;
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text, encrypted }));
        },
      );
      request.on('error', reject);
      request.end(payload);
    });

  it('answers over TLS with HSTS, upgrade-insecure-requests and a Secure session cookie', async () => {
    const health = await overTls('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.encrypted).toBe(true);
    expect(transportHeaders(health.headers).hsts).toMatch(/^max-age=\d+/);
    expect(transportHeaders(health.headers).directives).toContain('upgrade-insecure-requests');

    const login = await overTls('POST', '/api/auth/login', { email: ADMIN_EMAIL, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(sessionCookie(login.headers)).toMatch(/^bodega_session=[\w-]{40,};.*; Secure/);
    expect(JSON.parse(login.body).user.email).toBe(ADMIN_EMAIL);
  });
});
