import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { recordId } from '../../domain/field-values';
import { listMeta } from '../../domain/list-params';
import { historyAction, manilaDayBounds, pastTense, statusLabel } from '../../domain/lifecycle';
import { holdsAny, permissionName } from '../../domain/permissions';
import { todayInManila } from '../../domain/documents';
import { fromThousandths } from '../../domain/quantity';
import { stocks } from '../../domain/resources/stocks';
import { getResource, registry } from '../../domain/resources/registry';
import { recordActivity } from '../activity/activity-log';
import { nowIso, toIsoTimestamp } from '../db/dialect';
import { conflict, forbidden, notFound, validationError } from '../errors';
import { runWrite } from '../idempotency';
import { scopeOf } from '../plugins/auth';
import { locationOf, viewedSource, workOf } from '../documents/document-store';
import { numberTotal, referenceNumberTotal } from '../documents/numbering';
import { levelAt, reaches } from '../../domain/places';
import { alsoNeeded } from '../../domain/where-made';
import { assertOperates, placeAccessOf } from '../resources/places';
import { findRecordOrFail } from '../resources/record-service';
import { untyped, type Db } from '../db/scope';
import { dataOf, pageOf, recordSchema, refusals, PATH_ID } from './responses';

/**
 * Document routes beyond the generic CRUD: the previews of the next document number, a stock's
 * movements, and every transition the kinds' lifecycles declare — steps forward (a count's finish
 * and post) and undoings (void, cancel, close, which undo what a document moved, stock or money,
 * and leave it as history) — each in one transaction, with the kind's own work for it.
 */

const resourceOfDocument = new Map(
  registry.flatMap((definition) => (definition.document ? [[definition.document.type, definition.name]] : [])),
);
const documentTypes = registry.flatMap((definition) => (definition.document ? [definition.document.type] : []));
const twoLocationTypes = new Set(registry.flatMap((definition) => (definition.document?.twoLocations ? [definition.document.type] : [])));
const documentName = z.enum(documentTypes as [string, ...string[]], { error: 'The selected document name is invalid.' });
const optionalId = (label: string) => recordId(label).nullish();
const idParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, 'The id must be a whole number.')
    .meta(PATH_ID),
});
const numbersGiven = z.looseObject({ total: z.number().int().describe('How many were given; the next is this plus one') });
const movement = z.looseObject({
  id: z.number().int(),
  quantity: z.number().describe('In the base unit: positive in, negative out'),
  in_transit: z.number().describe('What is on its way to this stock (a transfer not yet received)'),
  quarantined: z.number().describe('Into quarantine (positive) or out of it (negative): on hand, but neither sold nor moved'),
  document_type: z.string(),
  document_id: z.number().int(),
  document_number: z.string(),
  document_resource: z.string().nullable().describe("The document's resource, for its address: /{document_resource}/{document_id}"),
  document_date: z.string(),
  moved_at: z.string().nullable(),
});

/** The body of a transition that asks why (the rest of a transfer closed as lost): its reason, and a note. */
const transitionReason = (reasons: readonly { value: string; label: string }[]) =>
  z
    .object({
      reason: z
        .string()
        .nullish()
        .describe(`Why: ${reasons.map((reason) => reason.value).join(', ')}`),
      note: z.string().nullish().describe('What happened, in words: needed when the reason is other'),
    })
    .nullish();

/**
 * The number previews' paths once ended in a slash, and a copy of the web app from before (a
 * device that has not taken the update yet) still sends them so: such a request is routed to the
 * path without it (app.ts gives this to Fastify as `rewriteUrl`).
 */
export function withoutLegacySlash(url: string): string {
  return url.replace(/^(\/api\/documents\/get-(?:reference-)?number-total-count)\/(?=\?|$)/, '$1');
}

export async function documentRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/documents/get-number-total-count',
    {
      config: { access: 'business' },
      schema: {
        tags: ['documents'],
        summary: 'How many numbers a document type has given at a branch or warehouse',
        body: z.object({ document_name: documentName, branch_id: optionalId('Branch id'), warehouse_id: optionalId('Warehouse id') }),
        response: { 200: numbersGiven.describe('The numbers given so far'), ...refusals(401, 403, 422) },
      },
    },
    async (request) => {
      const location = locationOf(request.body);
      if (!location) throw validationError({ branch_id: ['The branch or warehouse field is required.'] });
      // How many numbers a place has given says how busy it is: only for places the user holds —
      // but goods between places are numbered at the place they leave, which the side receiving
      // or asking for them may not hold, and whose next number their document will show anyway.
      const scope = scopeOf(request);
      const betweenPlaces = twoLocationTypes.has(request.body.document_name);
      if (!betweenPlaces && !reaches(levelAt(placeAccessOf(scope), location.type, location.id), 'view')) {
        throw forbidden(`You do not work at this ${location.type}.`);
      }
      return { total: await numberTotal(app.db, scope, request.body.document_name, location) };
    },
  );

  routes.post(
    '/api/documents/get-reference-number-total-count',
    {
      config: { access: 'business' },
      schema: {
        tags: ['documents'],
        summary: 'How many reference numbers a document type has given for a contact',
        body: z.object({
          document_name: documentName,
          contact_id: recordId('Contact id'),
        }),
        response: { 200: numbersGiven.describe('The reference numbers given so far'), ...refusals(401, 403, 422) },
      },
    },
    async (request) => ({
      total: await referenceNumberTotal(app.db, scopeOf(request), request.body.document_name, request.body.contact_id),
    }),
  );

  routes.get(
    '/api/stocks/:id/movements',
    {
      config: { permission: 'view-stocks' },
      schema: {
        tags: ['stocks'],
        summary: 'The movements of a stock, newest first, with the documents that made them',
        params: idParams,
        querystring: z.object({
          page: z.coerce.number().int().min(1, 'The page field must be at least 1.').default(1),
          per_page: z.coerce.number().int().min(1).max(100, 'The per page field must not be greater than 100.').default(15),
        }),
        response: { 200: pageOf(movement).describe('A page of movements, newest first'), ...refusals(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const stock = await findRecordOrFail(app.db, scope, stocks, Number(request.params.id));
      const { page, per_page: perPage } = request.query;
      const db = app.db as unknown as Db;
      const where = db.selectFrom('stock_movements').where('stock_id', '=', stock.id).where('business_id', '=', scope.businessId);
      const rows = await where
        .selectAll()
        .orderBy('document_date', 'desc')
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      const total = Number((await where.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()).total);
      return {
        data: rows.map((row) => ({
          id: Number(row.id),
          quantity: fromThousandths(Number(row.quantity)),
          in_transit: fromThousandths(Number(row.in_transit)),
          quarantined: fromThousandths(Number(row.quarantined)),
          document_type: row.document_type,
          document_id: Number(row.document_id),
          document_number: row.document_number,
          document_resource: resourceOfDocument.get(String(row.document_type)) ?? null,
          document_date: row.document_date,
          moved_at: toIsoTimestamp(row.moved_at),
        })),
        meta: listMeta(total, page, perPage, rows.length),
      };
    },
  );

  // Each transition every document kind's lifecycle declares: PATCH /api/{resource}/{id}/{post|finish|void|cancel|close}.
  for (const definition of registry) {
    for (const transition of definition.document?.lifecycle.transitions ?? []) {
      const noun = definition.singular.toLowerCase();
      // One taken as another kind's document is made (the rest of a transfer closed by its receivers):
      // that kind's permission, where that kind is made.
      const takenAs = transition.asKind ? getResource(transition.asKind) : definition;
      const needed = permissionName(transition.permission, takenAs.permission);
      // One the maker may take on the day they made it is open to the kind's create permission
      // too; which of the two a request needs is settled on its locked row.
      const makers = transition.byMakerSameDay ? permissionName('create', definition.permission) : undefined;
      // What it makes besides needs its own permission too (a count's post writes a stock adjustment).
      const [also] = alsoNeeded(transition);
      const what = transition.direction === 'forward' ? transition.does : transition.reverses;
      routes.patch(
        `/api/${definition.name}/:id/${transition.name}`,
        {
          config: makers ? {} : { permission: needed },
          // Before its id is even read, as the declared permission is: a caller holding neither learns nothing.
          ...((makers || also) && {
            preValidation: async (request: FastifyRequest) => {
              const held = request.tenant?.permissions ?? [];
              if (makers && !holdsAny(held, [needed, makers])) throw forbidden();
              if (also && !holdsAny(held, [also])) throw forbidden();
            },
          }),
          schema: {
            tags: [definition.name],
            summary: `${statusLabel(transition.name)} a ${noun}`,
            description: `From ${transition.from.join(', ')} to ${transition.to}. ${what}${also ? ` Needs ${also} too.` : ''}${
              makers ? ` Needs ${needed}, or ${makers} for its maker on the day they made it (Manila's date).` : ''
            }`,
            params: idParams,
            ...(transition.reasons && { body: transitionReason(transition.reasons) }),
            readsHeaders: ['Idempotency-Key', 'X-Made-At'],
            response: {
              200: dataOf(recordSchema(definition)).describe(`The ${noun}, ${transition.to}`),
              ...refusals(401, 403, 404, 409, 422),
            },
          },
        },
        async (request, reply) => {
          const scope = scopeOf(request);
          const id = Number(request.params.id);
          return runWrite(request, reply, async (trx) => {
            // Locked first: of several voids of one document, each after the first finds it void. Not
            // found where the user does not work, as the document's record would not be.
            const row = await viewedSource(trx, scope, definition, id);
            if (!row) throw notFound(noun);
            // Refused where they only view (or, taken as another kind, where they do not operate at
            // that kind's end). Decided on the stored row: the record's read may add much (a count's
            // differences) that a transition does not need.
            await assertOperates(trx, scope, takenAs, row);
            // Without the transition's own permission, only its maker, on the day they made it:
            // the guarded update below holds to the same maker and day.
            const asMaker = makers !== undefined && !holdsAny(scope.permissions, [needed]);
            const today = manilaDayBounds(todayInManila());
            if (asMaker) {
              const ask = `ask someone who may ${transition.permission} ${definition.plural.toLowerCase()}`;
              if (row.created_by === null || Number(row.created_by) !== scope.userId)
                throw forbidden(`Only the person who made this ${noun} may ${transition.name} it, on the day it was made; ${ask}.`);
              const madeAt = toIsoTimestamp(row.created_at) ?? '';
              if (madeAt < today.start || madeAt >= today.end)
                throw forbidden(`You may ${transition.name} a ${noun} you made only on the day you made it; ${ask}.`);
            }
            const status = String(row.status);
            const named = `${definition.singular} ${String(row.number)}`;
            if (!transition.from.includes(status)) {
              const from = transition.from.map((value) => statusLabel(value).toLowerCase()).join(' or ');
              throw conflict(
                `${named} is ${statusLabel(status).toLowerCase()}: ${transition.over ?? `it can be ${pastTense(transition.name)} only while ${from}`}.`,
              );
            }
            const blocked = transition.blocked?.(row);
            if (blocked) throw conflict(`${named} ${blocked}.`);
            const done = (await workOf(definition.name, transition.name)?.(trx, scope, row, request.body ?? undefined)) ?? {};
            const columns = done.columns ?? {};
            let guarded = untyped(trx)
              .updateTable(definition.table)
              .set({ ...columns, status: transition.to, updated_at: nowIso(), version: sql`version + 1` })
              .where('id', '=', id)
              .where('status', '=', status);
            if (asMaker)
              guarded = guarded
                .where('created_by', '=', scope.userId)
                .where('created_at', '>=', today.start)
                .where('created_at', '<', today.end);
            const settled = await guarded.executeTakeFirst();
            if (Number(settled.numUpdatedRows) !== 1) throw conflict(`This ${noun} changed meanwhile; reload it.`);
            // The history says what the step set besides the status (the adjustment a count's post wrote).
            const set = Object.entries(columns).filter(([column, value]) => value !== (row[column] ?? null));
            await recordActivity(trx, scope, {
              resource: definition.name,
              recordId: id,
              action: historyAction(transition),
              changes: {
                status: { from: status, to: transition.to },
                ...Object.fromEntries(set.map(([column, value]) => [column, { from: row[column] ?? null, to: value }])),
              },
              ...(done.summary && { summary: done.summary }),
            });
            return { status: 200, body: { data: await findRecordOrFail(trx, scope, definition, id) } };
          });
        },
      );
    }
  }
}
