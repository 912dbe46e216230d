import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate, type Certificate } from '../../tests/support/certificate';
import { readEnvironment } from './config';

describe('configuration for https and proxies', () => {
  let certificate: Certificate;
  let other: Certificate;

  beforeAll(() => {
    certificate = selfSignedCertificate();
    other = selfSignedCertificate('other.test');
  });
  afterAll(() => {
    for (const made of [certificate, other]) if (made) rmSync(made.dir, { recursive: true, force: true });
  });

  it('serves plain http and trusts no proxy unless told', () => {
    expect(readEnvironment({})).toMatchObject({ https: undefined, TRUST_PROXY: false });
  });

  it('reads the key and certificate when both are named', () => {
    const env = readEnvironment({ HTTPS_CERT_FILE: certificate.certFile, HTTPS_KEY_FILE: certificate.keyFile });
    expect(env.https?.cert.equals(certificate.cert)).toBe(true);
    expect(env.https?.key.equals(certificate.key)).toBe(true);
  });

  it('refuses to start with one file of the two, a file it cannot read, or a key and certificate that do not belong together', () => {
    expect(() => readEnvironment({ HTTPS_CERT_FILE: certificate.certFile })).toThrow(
      'Invalid configuration:\n  HTTPS_KEY_FILE: must be set with HTTPS_CERT_FILE (both or neither)',
    );
    expect(() => readEnvironment({ HTTPS_KEY_FILE: certificate.keyFile })).toThrow(
      'HTTPS_CERT_FILE: must be set with HTTPS_KEY_FILE (both or neither)',
    );
    const missing = join(certificate.dir, 'missing.crt');
    expect(() => readEnvironment({ HTTPS_CERT_FILE: missing, HTTPS_KEY_FILE: certificate.keyFile })).toThrow(
      `HTTPS_CERT_FILE: cannot read ${missing} (ENOENT)`,
    );
    expect(() => readEnvironment({ HTTPS_CERT_FILE: certificate.certFile, HTTPS_KEY_FILE: certificate.dir })).toThrow(
      `HTTPS_KEY_FILE: cannot read ${certificate.dir} (EISDIR)`,
    );
    expect(() => readEnvironment({ HTTPS_CERT_FILE: certificate.keyFile, HTTPS_KEY_FILE: certificate.keyFile })).toThrow(
      `HTTPS_CERT_FILE: ${certificate.keyFile} is not a PEM certificate`,
    );
    expect(() => readEnvironment({ HTTPS_CERT_FILE: certificate.certFile, HTTPS_KEY_FILE: certificate.certFile })).toThrow(
      `HTTPS_KEY_FILE: ${certificate.certFile} is not an unencrypted PEM private key`,
    );
    expect(() => readEnvironment({ HTTPS_CERT_FILE: certificate.certFile, HTTPS_KEY_FILE: other.keyFile })).toThrow(
      `HTTPS_KEY_FILE: ${other.keyFile} is not the key of the certificate in ${certificate.certFile}`,
    );
  });

  it('reads TRUST_PROXY as off, the nearest hop, or a list of proxy addresses and ranges', () => {
    expect(readEnvironment({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(readEnvironment({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(readEnvironment({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(readEnvironment({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(readEnvironment({ TRUST_PROXY: '10.0.0.1, 192.168.1.0/24,loopback, fd00::/8' }).TRUST_PROXY).toEqual([
      '10.0.0.1',
      '192.168.1.0/24',
      'loopback',
      'fd00::/8',
    ]);
    expect(() => readEnvironment({ TRUST_PROXY: 'yes' })).toThrow(
      'TRUST_PROXY: must be 0, 1 or a comma-separated list of proxy addresses or CIDR ranges; not one: "yes"',
    );
    expect(() => readEnvironment({ TRUST_PROXY: '10.0.0.1,10.0.0.0/33,proxy.lan' })).toThrow('not one: "10.0.0.0/33", "proxy.lan"');
  });
});
