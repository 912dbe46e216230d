import { sql, type RawBuilder } from 'kysely';
import type { Settles } from '../../domain/effects';
import { PLACE_RESOURCES, PLACE_TYPES, reaches } from '../../domain/places';
import type { ResourceDefinition } from '../../domain/resource';
import { getResource } from '../../domain/resources/registry';
import { STATEMENT_MAX_ROWS, STATEMENT_SOURCES, type Statement, type StatementRow } from '../../domain/statement';
import { ACCOUNT_CREDIT, paidInTenders } from '../../domain/tenders';
import { untyped, type Db, type Scope, type Trx } from '../db/scope';
import { notFound, validationError } from '../errors';
import { confinedToPlaces, holdsEveryPlace, placeAccessOf } from '../resources/places';
import type { Query } from '../resources/store';
import { pesos } from './live-documents';
import { reportBusiness } from './report-business';

/**
 * A customer's statement of account (domain/statement.ts) between `from` and `to`, both counted:
 * the documents of `STATEMENT_SOURCES` that name them, neither voided nor trashed, at the places the
 * user views; each charge (what an owed kind totals) and credit (what a settling kind's amount took
 * off), with the balance after it. The opening balance is what those documents dated before `from`
 * leave owed. Read in one read-only transaction, so the opening balance and the rows are of one
 * moment. Money in pesos, reckoned in centavos.
 */

export interface StatementQuery {
  contactId: number;
  from: string;
  to: string;
}

interface Source {
  order: number;
  definition: ResourceDefinition;
  details: readonly string[];
  /** A charge's total, or a credit's amount. */
  side: 'debit' | 'credit';
  amount: 'total' | 'amount';
  settles?: Settles;
}

/** Each kind of `STATEMENT_SOURCES` with the side its declared effects put it on. */
const SOURCES: Source[] = STATEMENT_SOURCES.map(({ resource, details }, order) => {
  const definition = getResource(resource);
  const effects = definition.document?.effects;
  if (effects?.owed) return { order, definition, details, side: 'debit', amount: 'total' };
  if (effects?.settles) return { order, definition, details, side: 'credit', amount: 'amount', settles: effects.settles };
  throw new Error(`${resource} is neither owed nor settles what is owed: it cannot be a row of a statement`);
});

/**
 * What a row of the source's table puts on the statement: a charge's total; a credit's amount — a
 * return kept on the customer's account credits its total (they are owed it), and a payment made
 * out of that credit credits only its other tenders (the credit was counted when it was given).
 */
function figureOf(source: Source): RawBuilder<number> {
  const { table } = source.definition;
  const column = (name: string) => sql.ref(`${table}.${name}`);
  if (source.definition.document?.lines === 'returns')
    return sql<number>`${column('amount')} + case when ${column('settlement')} = 'account' then ${column('total')} else 0 end`;
  if (paidInTenders(source.definition))
    return sql<number>`${column('amount')} - coalesce((select sum(tenders.amount) from payment_tenders tenders
      where tenders.payment_type = ${source.definition.document!.type} and tenders.payment_id = ${column('id')}
        and tenders.method = ${ACCOUNT_CREDIT}), 0)`;
  return sql<number>`${column(source.amount)}`;
}

const writtenDay = new Intl.DateTimeFormat('en-PH', { dateStyle: 'medium', timeZone: 'UTC' });

/** A day (`YYYY-MM-DD`) as words read it: "Mar 5, 2026". */
export function dayInWords(day: string): string {
  // setUTCFullYear, as Date.UTC reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
  return writtenDay.format(date);
}

/** The source's documents that name the customer and count: not voided, not trashed, at the places the scope views. */
function documentsOf(trx: Trx, source: Source, scope: Scope, contactId: number): Query {
  const { table } = source.definition;
  const query = untyped(trx)
    .selectFrom(table)
    .where(`${table}.business_id`, '=', scope.businessId)
    .where(`${table}.contact_id`, '=', contactId)
    .where(`${table}.deleted_at`, 'is', null)
    .where(`${table}.status`, '<>', sql.lit('void'));
  return confinedToPlaces(query, source.definition, (column) => `${table}.${column}`, scope);
}

/** What a row says beside its kind and number: the document it settles, then its details. */
function describe(source: Source, row: Record<string, unknown>): string {
  const parts: string[] = [];
  if (source.settles && row.settled_number) parts.push(`${getResource(source.settles.resource).singular} ${String(row.settled_number)}`);
  source.details.forEach((name, at) => {
    const value = row[`detail_${at}`];
    if (value === null || value === undefined || value === '') return;
    const field = source.definition.fields[name];
    if (field.kind === 'select') parts.push(field.options?.find((option) => option.value === value)?.label ?? String(value));
    else if (field.kind === 'date') parts.push(`${field.label}: ${dayInWords(String(value).slice(0, 10))}`);
    else parts.push(`${field.label}: ${String(value)}`);
  });
  return parts.join(' · ');
}

/** The names of the branches and warehouses the scope views, or null when it views every place. */
async function placesViewed(trx: Trx, scope: Scope): Promise<string[] | null> {
  if (holdsEveryPlace(scope)) return null;
  const viewed = placeAccessOf(scope).grants.filter((grant) => reaches(grant.level, 'view'));
  const names: string[] = [];
  for (const type of PLACE_TYPES) {
    const ids = viewed.filter((grant) => grant.type === type).map((grant) => grant.id);
    if (ids.length === 0) continue;
    const rows = await trx
      .selectFrom(PLACE_RESOURCES[type])
      .select('name')
      .where('business_id', '=', scope.businessId)
      .where('id', 'in', ids)
      .orderBy('name')
      .execute();
    names.push(...rows.map((row) => row.name));
  }
  return names;
}

interface Entry {
  source: Source;
  row: Record<string, unknown>;
  date: string;
  centavos: number;
}

/** The source's documents dated in the period, in order: at most one more than a statement holds, to tell a longer period. */
async function entriesOf(trx: Trx, source: Source, scope: Scope, { contactId, from, to }: StatementQuery): Promise<Entry[]> {
  const { table } = source.definition;
  let query = documentsOf(trx, source, scope, contactId)
    .where(`${table}.date`, '>=', from)
    .where(`${table}.date`, '<=', to)
    .select([
      `${table}.id as id`,
      `${table}.number as number`,
      `${table}.date as date`,
      figureOf(source).as('amount'),
      ...source.details.map((name, at) => `${table}.${name} as detail_${at}`),
    ])
    .orderBy(`${table}.date`)
    .orderBy(`${table}.id`)
    .limit(STATEMENT_MAX_ROWS + 1);
  if (source.settles) {
    const settled = getResource(source.settles.resource).table;
    query = query
      .leftJoin(`${settled} as settled`, 'settled.id', `${table}.${source.settles.field}`)
      .select('settled.number as settled_number');
  }
  const rows: Record<string, unknown>[] = await query.execute();
  return rows.map((row) => ({ source, row, date: String(row.date).slice(0, 10), centavos: Number(row.amount) }));
}

/** What the source's documents dated before `from` add to what is owed (a credit's, taken off), in centavos. */
async function owedBefore(trx: Trx, source: Source, scope: Scope, { contactId, from }: StatementQuery): Promise<number> {
  const { table } = source.definition;
  const { sum } = await documentsOf(trx, source, scope, contactId)
    .where(`${table}.date`, '<', from)
    .select(sql`coalesce(sum(${figureOf(source)}), 0)`.as('sum'))
    .executeTakeFirstOrThrow();
  return source.side === 'debit' ? Number(sum) : -Number(sum);
}

/** The statement of the contact `query.contactId` of the scope's business; 404 for a contact of no such id there. */
export async function statement(db: Db, scope: Scope, query: StatementQuery): Promise<Statement> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const customer = await trx
        .selectFrom('contacts')
        .select(['id', 'name', 'company_name', 'address', 'tin'])
        .where('id', '=', query.contactId)
        .where('business_id', '=', scope.businessId)
        .executeTakeFirst();
      if (!customer) throw notFound();
      const business = await reportBusiness(trx, scope.businessId);

      let opening = 0;
      const entries: Entry[] = [];
      for (const source of SOURCES) {
        opening += await owedBefore(trx, source, scope, query);
        entries.push(...(await entriesOf(trx, source, scope, query)));
      }
      if (entries.length > STATEMENT_MAX_ROWS) {
        throw validationError({
          from: [`The period holds more than ${STATEMENT_MAX_ROWS.toLocaleString('en-US')} documents: choose a shorter one.`],
        });
      }
      entries.sort((a, b) => a.date.localeCompare(b.date) || a.source.order - b.source.order || Number(a.row.id) - Number(b.row.id));

      let balance = opening;
      const totals = { debit: 0, credit: 0 };
      const data = entries.map(({ source, row, date, centavos }): StatementRow => {
        totals[source.side] += centavos;
        balance += source.side === 'debit' ? centavos : -centavos;
        return {
          date,
          resource: source.definition.name,
          id: Number(row.id),
          kind: source.definition.singular,
          number: String(row.number),
          description: describe(source, row),
          debit: source.side === 'debit' ? pesos(centavos) : 0,
          credit: source.side === 'credit' ? pesos(centavos) : 0,
          balance: pesos(balance),
        };
      });
      return {
        from: query.from,
        to: query.to,
        business,
        customer: { ...customer, id: Number(customer.id) },
        places: await placesViewed(trx, scope),
        opening_balance: pesos(opening),
        data,
        totals: { debit: pesos(totals.debit), credit: pesos(totals.credit) },
        closing_balance: pesos(balance),
      };
    });
}
