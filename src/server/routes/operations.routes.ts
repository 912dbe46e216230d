import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MASTER_PERMISSION } from '../../domain/permissions';
import type { AppConfig } from '../config';
import type { Db } from '../db/scope';
import { forbidden } from '../errors';
import { recentBackups, type BackupRecord } from '../operations/backup';
import { refusals } from './responses';

/**
 * How the server is kept: its backups, for the one who runs the server. A backup is of the whole
 * database, every business on the server in it, and anyone may make a business and be its master:
 * so being a master is not enough. The one who runs it is the server's first user, the
 * administrator made from ADMIN_EMAIL on its first start (docs/deploy.md), and sees the backups as
 * a master of the business they work in (the route's permission is the master permission itself,
 * which nothing else stands in for).
 */

const RECENT_BACKUPS = 5;

/** Whether `userId` runs the server: the first user it made, while not in the trash. */
export async function runsServer(db: Db, userId: number): Promise<boolean> {
  const first = await db.selectFrom('users').select(['id', 'deleted_at']).orderBy('id').limit(1).executeTakeFirst();
  return first !== undefined && first.id === userId && first.deleted_at === null;
}

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
        summary: 'The last backups of the database and how often they are taken (for the one who runs the server, as a master)',
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
    async (request) => {
      if (!request.actor || !(await runsServer(app.db, request.actor.userId))) {
        throw forbidden('The backups are of the whole server: only its administrator, who runs it, sees them.');
      }
      return { every: config.backups?.every?.label ?? null, ...(await recentBackups(app.db, RECENT_BACKUPS)) };
    },
  );
}
