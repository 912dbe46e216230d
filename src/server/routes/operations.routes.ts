import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MASTER_PERMISSION } from '../../domain/permissions';
import type { AppConfig } from '../config';
import { recentBackups } from '../operations/backup';

/**
 * How the server is kept: its backups, for masters only (the database is the whole shop's, every
 * business in it): the route's permission is the master permission itself, which nothing else
 * stands in for.
 */

const RECENT_BACKUPS = 5;

export async function operationsRoutes(app: FastifyInstance, config: AppConfig): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/operations/backups',
    {
      config: { permission: MASTER_PERMISSION },
      schema: { tags: ['operations'], summary: 'The last backups of the database and how often they are taken (masters only)' },
    },
    async () => ({ every: config.backups?.every?.label ?? null, ...(await recentBackups(app.db, RECENT_BACKUPS)) }),
  );
}
