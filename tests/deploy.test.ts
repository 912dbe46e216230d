import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { KEEP_ALIVE_MS } from '../src/server/routes/sync-events.routes';

/**
 * What docs/deploy.md ships in deploy/: the systemd unit, checked by systemd itself where
 * `systemd-analyze` is installed, and the nginx configuration, checked for its shape (nginx is not
 * installed to run `nginx -t` on it).
 */

const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';
const hasSystemd = existsSync(SYSTEMD_ANALYZE);
if (!hasSystemd) console.log(`systemd unit check skipped: no ${SYSTEMD_ANALYZE}; install systemd to run it.`);

/** The `[section]`'s `Key=value` settings, in order (a key may repeat). */
function settings(text: string, section: string): [string, string][] {
  const body = text.split(/^\[/m).find((part) => part.startsWith(`${section}]`)) ?? '';
  return body
    .split('\n')
    .slice(1)
    .filter((line) => /^\w+=/.test(line))
    .map((line) => {
      const at = line.indexOf('=');
      return [line.slice(0, at), line.slice(at + 1)];
    });
}

describe('deploy/bodega.service', () => {
  const unit = readFileSync('deploy/bodega.service', 'utf8');
  const service = settings(unit, 'Service');
  const value = (key: string) => service.filter(([name]) => name === key).map(([, setting]) => setting);

  it.skipIf(!hasSystemd)('passes systemd-analyze verify without a warning', async () => {
    // The unit names this machine's paths once installed: here the checkout and the running Node.
    const directory = mkdtempSync(join(tmpdir(), 'bodega-unit-'));
    try {
      const copy = join(directory, 'bodega.service');
      writeFileSync(copy, unit.replaceAll('/opt/bodega', resolve('.')).replaceAll('/usr/bin/node', process.execPath));
      const { stdout, stderr } = await promisify(execFile)(SYSTEMD_ANALYZE, ['verify', '--man=no', copy]);
      expect(`${stdout}${stderr}`).toBe('');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('runs scripts/start.ts as its own user, restarts on failure, and stops on SIGTERM with time to spare', () => {
    expect(value('ExecStart')).toEqual(['/usr/bin/node --import tsx scripts/start.ts']);
    expect(existsSync('scripts/start.ts')).toBe(true);
    expect(value('WorkingDirectory')).toEqual(['/opt/bodega']);
    expect(value('User')).toEqual(['bodega']);
    expect(value('EnvironmentFile')).toEqual(['/etc/bodega/bodega.env']);
    expect(value('Restart')).toEqual(['on-failure']);
    expect(value('KillSignal')).toEqual(['SIGTERM']);
    expect(Number(value('TimeoutStopSec')[0])).toBeGreaterThanOrEqual(30);
    expect(settings(unit, 'Install')).toEqual([['WantedBy', 'multi-user.target']]);
  });
});

describe('deploy/nginx.conf', () => {
  const config = readFileSync('deploy/nginx.conf', 'utf8');
  const statements = config
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);

  it('is well formed: blocks balance and every directive ends with a semicolon', () => {
    let depth = 0;
    for (const statement of statements) {
      if (statement.endsWith('{')) depth++;
      else if (statement === '}') depth--;
      else expect(statement, 'a directive').toMatch(/;$/);
      expect(depth, statement).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
  });

  it('ends TLS and passes two instances the headers TRUST_PROXY believes', () => {
    const upstream = config.slice(config.indexOf('upstream bodega {'), config.indexOf('}', config.indexOf('upstream bodega {')));
    expect(upstream.match(/^\s*server 127\.0\.0\.1:\d+;/gm)).toHaveLength(2);
    for (const directive of [
      'listen 443 ssl;',
      'ssl_certificate /',
      'ssl_certificate_key /',
      'return 301 https://$host$request_uri;',
      'proxy_pass http://bodega;',
      'proxy_set_header Host $host;',
      'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
      'proxy_set_header X-Forwarded-Proto $scheme;',
      'proxy_buffering off;',
    ]) {
      expect(
        statements.some((statement) => statement.startsWith(directive)),
        directive,
      ).toBe(true);
    }
  });

  it('keeps live updates flowing: unbuffered, and waiting longer than the stream stays quiet between its comments', () => {
    expect(statements).toContain('proxy_buffering off;');
    const timeouts = statements.filter((statement) => statement.startsWith('proxy_read_timeout '));
    expect(timeouts).toHaveLength(1);
    const seconds = Number(/^proxy_read_timeout (\d+)s;$/.exec(timeouts[0])?.[1]);
    expect(seconds * 1000).toBeGreaterThanOrEqual(3 * KEEP_ALIVE_MS);
  });
});
