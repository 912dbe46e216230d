import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { todayInManila } from '../../domain/documents';
import { MASTER_PERMISSION } from '../../domain/permissions';
import type { Database } from '../db/schema';
import { unauthenticated } from '../errors';
import { scopeOf } from '../plugins/auth';
import { businessZip } from '../resources/business-export';
import { serializeRow } from '../resources/codec';
import { businesses } from '../../domain/resources/businesses';
import { contentDisposition } from './files.routes';
import { bytesAnswer, dataOf, recordSchema, refusals } from './responses';

/** The live businesses the user is a live member of, oldest first (the first is selected on start). */
export async function businessesOf(db: Kysely<Database>, userId: number) {
  const rows = await db
    .selectFrom('businesses')
    .innerJoin('memberships', 'memberships.business_id', 'businesses.id')
    .selectAll('businesses')
    .where('memberships.user_id', '=', userId)
    .where('memberships.deleted_at', 'is', null)
    .where('businesses.deleted_at', 'is', null)
    .orderBy('businesses.id')
    .execute();
  return rows.map((row) => serializeRow(businesses, row));
}

export async function businessRoutes(app: FastifyInstance): Promise<void> {
  for (const path of ['get-all-businesses', 'retrieve-all-businesses']) {
    app.get(
      `/api/businesses/${path}`,
      {
        config: { access: 'user' },
        schema: {
          tags: ['businesses'],
          summary: "The signed-in user's businesses",
          response: { 200: dataOf(z.array(recordSchema(businesses))).describe('Oldest first'), ...refusals(401) },
        },
      },
      async (request) => {
        if (!request.actor) throw unauthenticated();
        return { data: await businessesOf(app.db, request.actor.userId) };
      },
    );
  }

  // The master permission itself, not any permission: the zip holds every record of every kind, at
  // every place (a master holds them all; the zip keeps to the scope's places all the same).
  app.get(
    '/api/businesses/export.zip',
    {
      config: { permission: MASTER_PERMISSION, heavy: 'export' },
      schema: {
        tags: ['businesses'],
        summary: 'All data of the active business as a zip of CSV files (masters only)',
        description:
          'The business as it was at one moment. One export runs at a time on the server and a few more wait their turn; beyond that, 429 with Retry-After.',
        response: {
          200: bytesAnswer(
            Readable,
            'A zip with a CSV per resource, one per kind of document lines, and a README.txt',
            ['application/zip'],
            'binary',
          ),
          ...refusals(401, 403),
        },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const business = await app.db.selectFrom('businesses').select('name').where('id', '=', scope.businessId).executeTakeFirstOrThrow();
      const exportedAt = new Date();
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', contentDisposition(`${business.name}-${todayInManila(exportedAt)}.zip`))
        .header('cache-control', 'private, no-store')
        .send(Readable.from(businessZip(app.db, scope, business.name, exportedAt)));
    },
  );
}
