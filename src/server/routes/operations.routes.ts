import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MASTER_PERMISSION } from '../../domain/permissions';
import type { AppConfig } from '../config';
import { recentBackups, type BackupRecord } from '../operations/backup';
import { refusals } from './responses';

/**
 * How the server is kept: its backups, for masters only (the database is the whole shop's, every
 * business in it): the route's permission is the master permission itself, which nothing else
 * stands in for.
 */

const RECENT_BACKUPS = 5;

const backup: z.ZodType<BackupRecord> = z.looseObject({
  id: z.number().int(),
  kind: z.enum(['manual', 'scheduled', 'before-migrations']),
  started_at: z.string(),
  seconds: z.number().describe('How long it took'),
  file: z.string().nullable().describe('Where it was written; null when it failed'),
  bytes: z.number().int().nullable(),
  error: z.string().nullable().describe('Why it failed; null when it succeeded'),
});

export async function operationsRoutes(app: FastifyInstance, config: AppConfig): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/operations/backups',
    {
      config: { permission: MASTER_PERMISSION },
      schema: {
        tags: ['operations'],
        summary: 'The last backups of the database and how often they are taken (masters only)',
        response: {
          200: z
            .looseObject({
              every: z.string().nullable().describe('How often the server backs up (as BACKUP_EVERY says); null when it does not'),
              data: z.array(backup).describe('The newest first, failed ones included'),
              last_succeeded: backup.nullable(),
            })
            .describe('The backups'),
          ...refusals(401, 403),
        },
      },
    },
    async () => ({ every: config.backups?.every?.label ?? null, ...(await recentBackups(app.db, RECENT_BACKUPS)) }),
  );
}
