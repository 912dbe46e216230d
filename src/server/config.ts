import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { DatabaseConfig } from './db/dialect';
import { BACKUP_DEFAULTS, type BackupSettings } from './operations/backup';

export interface AppConfig {
  database: DatabaseConfig;
  /** Migrate the database at start (the default), or only refuse one that is not migrated (`npm run migrate` does it). */
  migrate?: boolean;
  /** Sign-in attempts allowed per client address per minute. */
  loginAttemptsPerMinute: number;
  /** Mark the session cookie Secure even when a request does not arrive over https. */
  secureCookies: boolean;
  /** Serve https with this PEM key and certificate instead of plain http. */
  https?: { key: Buffer; cert: Buffer };
  /**
   * Which proxies in front are believed about the client's address and scheme (X-Forwarded-For,
   * X-Forwarded-Proto): none (false), the nearest hops (a count), or those at these addresses.
   */
  trustProxy?: false | 1 | string[];
  /** The built web app to serve, when there is one. */
  clientDir?: string;
  /** Fastify's logger: on or off, or its options (tests collect error lines through a stream). */
  logger: boolean | { level: string; stream: { write(line: string): void } };
  /** Where backups go, how many are kept and how often the server takes one (BACKUP_*); defaults without. */
  backups?: BackupSettings;
  /**
   * Check every answer against its route's schema (plugins/answers.ts): on unless told otherwise,
   * as tests and development run; the server started by main.ts leaves it off (CHECK_ANSWERS=1 turns it on).
   */
  checkAnswers?: boolean;
}

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres:\/\/|postgresql:\/\/)/, 'must start with file:, postgres:// or postgresql://')
    .default('file:./data/bodega.sqlite'),
  ADMIN_EMAIL: z.email().default('admin@example.com'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  DEMO_DATA: z.enum(['0', '1']).default('1'),
  SECURE_COOKIES: z.enum(['0', '1']).default('0'),
  LOGIN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  LOG: z.enum(['0', '1']).default('1'),
  MIGRATE: z.enum(['0', '1']).default('1'),
  CHECK_ANSWERS: z.enum(['0', '1']).default('0'),
  /** Seconds a stop (SIGTERM, SIGINT) waits for the requests in flight. */
  SHUTDOWN_TIMEOUT: z.coerce.number().positive().max(3600).default(10),
  HTTPS_CERT_FILE: z.string().min(1).optional(),
  BACKUP_DIR: z.string().min(1).default(BACKUP_DEFAULTS.dir),
  BACKUP_KEEP: z.coerce.number().int().min(1).default(BACKUP_DEFAULTS.keep),
  BACKUP_EVERY: z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return undefined;
      const match = /^(\d{1,4})([mhd])$/.exec(value);
      const ms = match ? Number(match[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'] : 0;
      if (ms < 5 * 60_000) {
        context.addIssue({ code: 'custom', message: 'must be minutes, hours or days of at least 5 minutes, such as 30m, 6h, 24h or 7d' });
        return z.NEVER;
      }
      return { label: value, ms };
    }),
  HTTPS_KEY_FILE: z.string().min(1).optional(),
  TRUST_PROXY: z
    .string()
    .trim()
    .default('0')
    .transform((value, context) => {
      if (/^(0|false)$/i.test(value)) return false;
      if (/^(1|true)$/i.test(value)) return 1;
      const entries = value.split(',').map((entry) => entry.trim());
      const wrong = entries.filter((entry) => !isProxyAddress(entry));
      if (wrong.length > 0) {
        context.addIssue({
          code: 'custom',
          message: `must be 0, 1 or a comma-separated list of proxy addresses or CIDR ranges; not one: ${wrong.map((entry) => `"${entry}"`).join(', ')}`,
        });
        return z.NEVER;
      }
      return entries;
    }),
});

/** The key and certificate files are read (and checked) here too, so every problem stops the start. */
const configurationSchema = environmentSchema.transform(({ HTTPS_CERT_FILE, HTTPS_KEY_FILE, ...rest }, context) => ({
  ...rest,
  https: readHttps(HTTPS_CERT_FILE, HTTPS_KEY_FILE, context),
}));

export type Environment = z.output<typeof configurationSchema>;

/** An IP address, a CIDR range, or one of the named ranges Fastify knows (loopback, linklocal, uniquelocal). */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/** Reads and checks the environment; a bad value stops the start with a message naming it. */
export function readEnvironment(env: NodeJS.ProcessEnv = process.env): Environment {
  const result = configurationSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n  ');
    throw new Error(`Invalid configuration:\n  ${problems}`);
  }
  return result.data;
}

/**
 * The key and certificate named by HTTPS_KEY_FILE and HTTPS_CERT_FILE (both or neither), read
 * and checked to be PEM that belong together, so a mistake stops the start with a message.
 */
function readHttps(certFile: string | undefined, keyFile: string | undefined, context: z.RefinementCtx): AppConfig['https'] {
  const problem = (variable: string, message: string) => {
    context.addIssue({ code: 'custom', path: [variable], message });
    return undefined;
  };
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined) return problem('HTTPS_CERT_FILE', 'must be set with HTTPS_KEY_FILE (both or neither)');
  if (keyFile === undefined) return problem('HTTPS_KEY_FILE', 'must be set with HTTPS_CERT_FILE (both or neither)');
  const cert = readFile(certFile);
  const key = readFile(keyFile);
  if (typeof cert === 'string') return problem('HTTPS_CERT_FILE', `cannot read ${certFile} (${cert})`);
  if (typeof key === 'string') return problem('HTTPS_KEY_FILE', `cannot read ${keyFile} (${key})`);
  let certificate: X509Certificate;
  let privateKey: KeyObject;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    return problem('HTTPS_CERT_FILE', `${certFile} is not a PEM certificate`);
  }
  try {
    privateKey = createPrivateKey(key);
  } catch {
    return problem('HTTPS_KEY_FILE', `${keyFile} is not an unencrypted PEM private key`);
  }
  if (!certificate.checkPrivateKey(privateKey))
    return problem('HTTPS_KEY_FILE', `${keyFile} is not the key of the certificate in ${certFile}`);
  return { key, cert };
}

/** The file's bytes, or the reason it cannot be read (ENOENT, EACCES, EISDIR …). */
function readFile(path: string): Buffer | string {
  try {
    return readFileSync(path);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'unreadable';
  }
}
