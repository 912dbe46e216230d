import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MASTER_PERMISSION } from '../../domain/permissions';
import type { AppConfig } from '../config';
import { forbidden } from '../errors';
import { recentBackups } from '../operations/backup';
import { scopeOf } from '../plugins/auth';

/**
 * How the server is kept: its backups, for masters only (the database is the whole shop's, every
 * business in it). Checked by name, as `permission` would let any holder of the master permission
 * through — which is what is wanted — but also let a route's own permission stand in for it.
 */

const RECENT_BACKUPS = 5;

export async function operationsRoutes(app: FastifyInstance, config: AppConfig): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/operations/backups',
    {
      config: { access: 'business' },
      onRequest: async (request) => {
        if (!scopeOf(request).permissions.has(MASTER_PERMISSION)) throw forbidden();
      },
      schema: { tags: ['operations'], summary: 'The last backups of the database and how often they are taken (masters only)' },
    },
    async () => ({ every: config.backups?.every?.label ?? null, ...(await recentBackups(app.db, RECENT_BACKUPS)) }),
  );
}
