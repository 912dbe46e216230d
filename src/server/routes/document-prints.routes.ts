import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { permissionName } from '../../domain/permissions';
import { registry } from '../../domain/resources/registry';
import { countPrint } from '../documents/particulars';
import { runWrite } from '../idempotency';
import { scopeOf } from '../plugins/auth';
import { findRecordOrFail } from '../resources/record-service';
import { dataOf, refusals, PATH_ID } from './responses';

const idParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, 'The id must be a whole number.')
    .meta(PATH_ID),
});

const printCounted = z.looseObject({
  copy: z.number().int().describe('1: this print is the original; 2 and on: a reprint, the copy to mark as such'),
  printed_at: z.string().describe('When this print was counted'),
  first_printed_at: z.string().describe('When the original was printed'),
});

/**
 * `POST /api/{resource}/{id}/prints` for every document kind: a print of the document, counted
 * (`documents/particulars.ts`, `countPrint`) before its copy goes to paper, so the copy says
 * whether it is the original or a reprint. Whoever may view the document may print it, where
 * they view it.
 */
export async function documentPrintRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  for (const definition of registry) {
    const spec = definition.document;
    if (!spec) continue;
    const noun = definition.singular.toLowerCase();
    routes.post(
      `/api/${definition.name}/:id/prints`,
      {
        config: { permission: permissionName('view', definition.permission) },
        schema: {
          tags: [definition.name],
          summary: `Count a print of a ${noun}`,
          description: 'The first print of a document is its original; every later one is a reprint, and its copy says so.',
          params: idParams,
          readsHeaders: ['Idempotency-Key'],
          response: { 200: dataOf(printCounted).describe('Which copy this print is'), ...refusals(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(request);
        const id = Number(request.params.id);
        return runWrite(request, reply, async (trx) => {
          // Not found where the user does not view it, as its read is.
          await findRecordOrFail(trx, scope, definition, id);
          return { status: 200, body: { data: await countPrint(trx, scope, spec.type, id) } };
        });
      },
    );
  }
}
