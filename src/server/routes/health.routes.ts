import type { FastifyInstance } from 'fastify';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/health',
    { config: { access: 'public' }, schema: { tags: ['health'], summary: 'For load balancers: 200 while the database answers' } },
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
