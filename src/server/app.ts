import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { serveClient } from './client-page';
import { composeEngine } from './composition';
import type { AppConfig } from './config';
import { openDatabase } from './db/dialect';
import { migrateToLatest, requireMigrated } from './db/migrate';
import { BACKUP_DEFAULTS, backUpBeforeMigrating, type BackupSchedule, logBackup, recordBackup, scheduleBackups } from './operations/backup';
import { markServerOnDatabase } from './operations/server-marker';
import { answerSerializer } from './plugins/answers';
import { registerApiDocs } from './plugins/api-docs';
import { registerAuth } from './plugins/auth';
import { registerErrorHandling } from './plugins/errors';
import { registerHeavyWork } from './plugins/heavy-work';
import { accessRoutes } from './routes/access.routes';
import { batchRoutes, refuseUnbatchableChanges } from './routes/batch.routes';
import { activityRoutes } from './routes/activity.routes';
import { authRoutes } from './routes/auth.routes';
import { businessRoutes } from './routes/business.routes';
import { documentRoutes, withoutLegacySlash } from './routes/documents.routes';
import { documentPrintRoutes } from './routes/document-prints.routes';
import { filesRoutes } from './routes/files.routes';
import { healthRoutes } from './routes/health.routes';
import { importRoutes } from './routes/imports.routes';
import { operationsRoutes } from './routes/operations.routes';
import { overviewRoutes } from './routes/overview.routes';
import { paymentTenderRoutes } from './routes/payment-tenders.routes';
import { syncRoutes } from './routes/sync.routes';
import { syncEventsRoutes } from './routes/sync-events.routes';
import { numberBlocksRoutes } from './routes/number-blocks.routes';
import { placesRoutes } from './routes/places.routes';
import { resourceRoutes } from './routes/resource.routes';
import { reportRoutes } from './routes/reports.routes';
import { statementRoutes } from './routes/statements.routes';
import { stockCountRoutes } from './routes/stock-counts.routes';
import { ensurePermissions } from './services/permission-catalogue.service';
import { costUncosted } from './documents/costing';
import { registerCostFollowUp } from './plugins/cost-follow-up';

/**
 * Builds the API (and, when built, the web app) on a migrated database. Tests call it and use
 * `app.inject()`; main.ts only reads the environment, seeds and listens.
 */
export async function buildApp(config: AppConfig): Promise<FastifyInstance> {
  composeEngine();
  const { db, kind } = openDatabase(config.database);
  const schema = kind === 'postgres' ? (config.database.schema ?? 'public') : undefined;
  const unmarkDatabase = markServerOnDatabase(config.database);
  const backups = config.backups ?? BACKUP_DEFAULTS;
  let beforeMigrations: Awaited<ReturnType<typeof backUpBeforeMigrating>> | undefined;
  try {
    if (config.migrate === false) await requireMigrated(db, schema);
    else {
      beforeMigrations = await backUpBeforeMigrating(db, config.database, backups);
      await migrateToLatest(db, schema);
    }
  } catch (error) {
    unmarkDatabase();
    await db.destroy();
    throw error;
  }
  await ensurePermissions(db);
  // Goods moved before costing was kept (a database an older Bodega made) are costed from the ledger once.
  await costUncosted(db);

  const app = Fastify({
    logger: config.logger,
    bodyLimit: 1024 * 1024,
    // The nearest hop is a function: Fastify believes no one on a bare hop count.
    trustProxy: config.trustProxy === 1 ? (_address: string, hop: number) => hop === 0 : (config.trustProxy ?? false),
    https: config.https ?? null,
    rewriteUrl: (request) => withoutLegacySlash(request.url ?? '/'),
  });
  app.decorate('db', db);
  app.addHook('onClose', () => db.destroy());
  app.addHook('onClose', async () => unmarkDatabase());
  if (beforeMigrations) {
    logBackup(app.log, beforeMigrations);
    await recordBackup(db, beforeMigrations);
  }
  const every = backups.every;
  if (every) {
    let schedule: BackupSchedule | undefined;
    app.addHook('onReady', async () => void (schedule = scheduleBackups(db, config.database, { ...backups, every }, app.log)));
    app.addHook('preClose', async () => schedule?.stop());
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer(config.checkAnswers ?? true));
  acceptEmptyJson(app);

  // External plugins. Asking for https (upgrade-insecure-requests, HSTS) only when the request came
  // over https: a page served over plain http on a shop's network would otherwise load nothing.
  // 'wasm-unsafe-eval' lets the page compile WebAssembly (the camera's barcode reader), and nothing else: no eval of script.
  const directives = {
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
  };
  await app.register(helmet, {
    contentSecurityPolicy: { directives: { ...directives, 'upgrade-insecure-requests': null } },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.helmet({ contentSecurityPolicy: { directives }, strictTransportSecurity: {} });
  });
  await app.register(cookie);
  // Answers over 1 kB go out brotli or gzip, as the client accepts (a list of 15 records is
  // about 10 kB of JSON). The client's files are compressed at build time and sent as they are.
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(rateLimit, { global: false });
  await registerApiDocs(app);

  // App plugins.
  registerErrorHandling(app);
  refuseUnbatchableChanges(app);
  registerAuth(app);
  registerHeavyWork(app);
  await registerCostFollowUp(app);

  // Routes.
  await app.register(healthRoutes);
  await app.register(authRoutes, config);
  await app.register(businessRoutes);
  await app.register(resourceRoutes);
  await app.register(accessRoutes);
  await app.register(placesRoutes);
  await app.register(numberBlocksRoutes);
  await app.register(syncRoutes);
  await app.register(syncEventsRoutes);
  await app.register(documentRoutes);
  await app.register(documentPrintRoutes);
  await app.register(paymentTenderRoutes);
  await app.register(stockCountRoutes);
  await app.register(importRoutes);
  await app.register(filesRoutes);
  await app.register(activityRoutes);
  await app.register(overviewRoutes);
  await app.register(statementRoutes);
  await app.register(reportRoutes);
  await app.register(operationsRoutes, config);
  await app.register(batchRoutes);

  serveClient(app, config.clientDir);
  return app;
}

/**
 * A request saying its body is JSON and sending none is taken as one without a body, whatever its
 * method: many HTTP clients send `Content-Type: application/json` on every call, a DELETE too. A
 * route that needs a body then answers its own 422. Any other body is read by Fastify's own JSON
 * parser, with its guard against `__proto__` and `constructor` keys.
 */
function acceptEmptyJson(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text === '') done(null, undefined);
    else json(request, text, done);
  });
}
