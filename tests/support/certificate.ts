import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Certificate {
  dir: string;
  keyFile: string;
  certFile: string;
  key: Buffer;
  cert: Buffer;
}

/** A throwaway self-signed certificate for `name` (and 127.0.0.1), made by openssl in a temp folder. */
export function selfSignedCertificate(name = 'bodega.test'): Certificate {
  const dir = mkdtempSync(join(tmpdir(), 'bodega-cert-'));
  const keyFile = join(dir, 'bodega.key');
  const certFile = join(dir, 'bodega.crt');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=DNS:${name},IP:127.0.0.1`,
    ],
    { stdio: 'ignore' },
  );
  return { dir, keyFile, certFile, key: readFileSync(keyFile), cert: readFileSync(certFile) };
}
