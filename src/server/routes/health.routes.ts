import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { refusals } from './responses';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'For load balancers: 200 while the database answers',
        response: {
          200: z.looseObject({ status: z.literal('ok') }).describe('The database answers'),
          503: z.looseObject({ status: z.literal('unavailable') }).describe('The database does not answer'),
          ...refusals(),
        },
      },
    },
    async (_request, reply) => {
      try {
        await app.db.selectFrom('permissions').select('id').limit(1).execute();
        return { status: 'ok' };
      } catch {
        return reply.status(503).send({ status: 'unavailable' });
      }
    },
  );
}
