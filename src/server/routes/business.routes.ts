import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { unauthenticated } from '../errors';
import { serializeRow } from '../resources/codec';
import { businesses } from '../../domain/resources/businesses';

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
      { config: { access: 'user' }, schema: { tags: ['businesses'], summary: "The signed-in user's businesses" } },
      async (request) => {
        if (!request.actor) throw unauthenticated();
        return { data: await businessesOf(app.db, request.actor.userId) };
      },
    );
  }
}
