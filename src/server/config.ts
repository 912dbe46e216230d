import { z } from 'zod';
import type { DatabaseConfig } from './db/dialect';

export interface AppConfig {
  database: DatabaseConfig;
  /** Sign-in attempts allowed per client address per minute. */
  loginAttemptsPerMinute: number;
  /** Mark the session cookie Secure (behind https). */
  secureCookies: boolean;
  /** The built web app to serve, when there is one. */
  clientDir?: string;
  /** Fastify's logger: on or off, or its options (tests collect error lines through a stream). */
  logger: boolean | { level: string; stream: { write(line: string): void } };
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
});

export type Environment = z.output<typeof environmentSchema>;

/** Reads and checks the environment; a bad value stops the start with a message naming it. */
export function readEnvironment(env: NodeJS.ProcessEnv = process.env): Environment {
  const result = environmentSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n  ');
    throw new Error(`Invalid configuration:\n  ${problems}`);
  }
  return result.data;
}
