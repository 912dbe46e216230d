import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { levelAt, PLACE_RESOURCES, PLACE_TYPES } from '../../domain/places';
import { scopeOf } from '../plugins/auth';
import { placeAccessOf } from '../resources/places';
import { refusals } from './responses';

const place = z.looseObject({
  type: z.enum(['branch', 'warehouse']),
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  level: z
    .enum(['view', 'operate'])
    .nullable()
    .describe("The caller's level there: view, operate, or null where they do not work (only its name is told)"),
});

/**
 * The places of the active business as the caller holds them. Every live branch and warehouse
 * is named — a stock request names the place it asks, a transfer where it goes, and those may be
 * places the caller does not work at — but only by its code and name, with the caller's level
 * there; the places' records, stock and documents stay confined (`resources/places.ts`).
 */
export async function placesRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/places',
    {
      config: { access: 'business' },
      schema: {
        tags: ['places'],
        summary: "The business's branches and warehouses by name, with the caller's level at each",
        response: {
          200: z
            .looseObject({
              all: z.enum(['view', 'operate']).nullable().describe('Held at every place, at this level'),
              data: z.array(place),
            })
            .describe('Branches, then warehouses, by name'),
          ...refusals(401, 403),
        },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const access = placeAccessOf(scope);
      const data = [];
      for (const type of PLACE_TYPES) {
        const rows = await app.db
          .selectFrom(PLACE_RESOURCES[type])
          .select(['id', 'code', 'name'])
          .where('business_id', '=', scope.businessId)
          .where('deleted_at', 'is', null)
          .orderBy('name')
          .execute();
        for (const row of rows)
          data.push({ type, id: Number(row.id), code: row.code, name: row.name, level: levelAt(access, type, Number(row.id)) });
      }
      return { all: access.all, data };
    },
  );
}
