import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { readEnvironment } from './config';
import { DatabaseVersionError } from './db/migrate';
import { seed } from './seed';
import { stopOnSignals } from './shutdown';

let env: ReturnType<typeof readEnvironment>;
try {
  env = readEnvironment();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
let app: FastifyInstance;
try {
  app = await buildApp({
    database: { url: env.DATABASE_URL },
    migrate: env.MIGRATE === '1',
    loginAttemptsPerMinute: env.LOGIN_ATTEMPTS_PER_MINUTE,
    secureCookies: env.SECURE_COOKIES === '1',
    https: env.https,
    trustProxy: env.TRUST_PROXY,
    clientDir: resolve('dist'),
    logger: env.LOG === '1',
    backups: { dir: env.BACKUP_DIR, keep: env.BACKUP_KEEP, every: env.BACKUP_EVERY },
    checkAnswers: env.CHECK_ANSWERS === '1',
  });
} catch (error) {
  if (!(error instanceof DatabaseVersionError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const seeded = await seed(app.db, { adminEmail: env.ADMIN_EMAIL, adminPassword: env.ADMIN_PASSWORD, demoData: env.DEMO_DATA === '1' });
if (seeded.adminPassword) {
  console.log(
    `\n  First start: sign in as ${env.ADMIN_EMAIL} with password ${seeded.adminPassword}\n  (shown once; set ADMIN_PASSWORD to choose it)\n`,
  );
}

stopOnSignals(app, env.SHUTDOWN_TIMEOUT);
await app.listen({ port: env.PORT, host: env.HOST });
