import { resolve } from 'node:path';
import { buildApp } from './app';
import { readEnvironment } from './config';
import { seed } from './seed';

let env: ReturnType<typeof readEnvironment>;
try {
  env = readEnvironment();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const app = await buildApp({
  database: { url: env.DATABASE_URL },
  loginAttemptsPerMinute: env.LOGIN_ATTEMPTS_PER_MINUTE,
  secureCookies: env.SECURE_COOKIES === '1',
  https: env.https,
  trustProxy: env.TRUST_PROXY,
  clientDir: resolve('dist'),
  logger: env.LOG === '1',
  backups: { dir: env.BACKUP_DIR, keep: env.BACKUP_KEEP, every: env.BACKUP_EVERY },
});

const seeded = await seed(app.db, { adminEmail: env.ADMIN_EMAIL, adminPassword: env.ADMIN_PASSWORD, demoData: env.DEMO_DATA === '1' });
if (seeded.adminPassword) {
  console.log(
    `\n  First start: sign in as ${env.ADMIN_EMAIL} with password ${seeded.adminPassword}\n  (shown once; set ADMIN_PASSWORD to choose it)\n`,
  );
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
await app.listen({ port: env.PORT, host: env.HOST });
