import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IMPORT_KINDS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  importKind,
  importNeeds,
  type ImportKindName,
  type OnExisting,
} from '../../domain/imports';
import { holdsAny, permissionName } from '../../domain/permissions';
import { getResource } from '../../domain/resources/registry';
import { forbidden, HttpError } from '../errors';
import { runWrite } from '../idempotency';
import { checkImport, runImport } from '../imports/import-service';
import { scopeOf } from '../plugins/auth';
import { dataOf, refusals } from './responses';

/**
 * Imports from a spreadsheet the import screen has read: `POST /api/imports/{kind}` with the rows
 * (by column key), what to do with rows naming records already there, and `check_only` for the
 * preview. All or nothing: a row with a problem is a 422 naming every such row, and nothing is
 * written.
 */

const kindParams = z.object({
  kind: z.enum(IMPORT_KINDS.map((kind) => kind.name) as [ImportKindName, ...ImportKindName[]], {
    error: `The kind must be one of: ${IMPORT_KINDS.map((kind) => kind.name).join(', ')}.`,
  }),
});
const cell = z.union([z.string().max(2000, 'A cell holds at most 2,000 characters.'), z.number(), z.boolean(), z.null()]);
const body = z.object({
  rows: z
    .array(z.record(z.string().max(64), cell), { error: 'The rows field must be a list of rows.' })
    .min(1, 'The file has no rows under its header.')
    .max(IMPORT_MAX_ROWS, `An import takes at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows; split the file.`),
  on_existing: z.enum(['update', 'skip'], { error: 'On existing must be update or skip.' }).default('skip'),
  check_only: z.boolean().default(false),
});
const outcome = z.looseObject({
  total: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int().describe('Rows naming a record already here, to update, that would change nothing'),
  skipped: z.number().int(),
  problem_rows: z.number().int().describe('How many rows have a problem (the first 200 are listed)'),
  problems: z.array(
    z.looseObject({ row: z.number().int().describe('The row of the file, the header being row 1'), messages: z.array(z.string()) }),
  ),
  made: z.array(z.string()).describe('Units, brands, item types and classifications made for names the rows use'),
  changes: z
    .array(z.looseObject({ field: z.string(), records: z.number().int() }))
    .describe('Updates: how many records each field changes in'),
  adjustments: z.array(z.looseObject({ id: z.number().int(), number: z.string() })).describe('Opening stock: the adjustments posted'),
});

/** The permissions an import needs: to create its records, and to update them when it updates. */
function needed(kind: ImportKindName, onExisting: OnExisting): string[] {
  const declared = importKind(kind)!;
  const { permission } = getResource(declared.resource);
  return importNeeds(declared, onExisting === 'update').map((action) => permissionName(action, permission));
}

export async function importRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(
    '/api/imports/:kind',
    {
      // A 20 MB spreadsheet read into rows, with room for JSON's quotes and keys.
      bodyLimit: IMPORT_MAX_BYTES * 3,
      config: { access: 'business', heavy: 'import' },
      schema: {
        tags: ['imports'],
        summary: 'Import items, contacts, prices or opening stock from rows of a spreadsheet',
        description:
          'check_only: the import run to its end and rolled back — what would be created, updated and skipped, and every row’s problems (whatever the import would refuse). Otherwise all or nothing: 422 naming each row with a problem (errors under rows.{row}), or every row written in one transaction. Imports of one kind in one business run one after the other, so the same file sent twice at once applies once.',
        params: kindParams,
        body,
        readsHeaders: ['Idempotency-Key', 'X-Made-At'],
        response: { 200: dataOf(outcome), ...refusals(401, 403, 409, 413, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const { kind } = request.params;
      const { rows, on_existing: onExisting, check_only: checkOnly } = request.body;
      for (const permission of needed(kind, onExisting)) if (!holdsAny(scope.permissions, [permission])) throw forbidden();
      if (checkOnly) return { data: await checkImport(app.db, scope, kind, rows, onExisting) };
      return runWrite(request, reply, async (trx) => {
        const done = await runImport(trx, scope, kind, rows, onExisting);
        if (done.problem_rows > 0) {
          const errors = Object.fromEntries(done.problems.map((problem) => [`rows.${problem.row}`, problem.messages]));
          const count = done.problem_rows === 1 ? '1 row has a problem' : `${done.problem_rows.toLocaleString('en-US')} rows have problems`;
          throw new HttpError(422, `${count}: nothing was imported.`, errors);
        }
        return { status: 200, body: { data: done } };
      });
    },
  );
}
