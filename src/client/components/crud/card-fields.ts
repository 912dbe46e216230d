import type { ResourceDefinition } from '../../../domain/resource';

/** What a record's card on a phone shows, in place of a table row too wide for the screen. */
export interface CardFields {
  /** Its number or name. */
  title: string;
  /** Who or where it is about: the first reference among its columns (customer, supplier, branch…). */
  party?: string;
  /**
   * Goods between two places (a stock request, a transfer): the columns naming where they leave
   * and where they go, shown "from → to" in place of a party, so the requesting or receiving end
   * shows beside the source.
   */
  route?: { from: string; to: string };
  /** Its date, when its list shows one. */
  date?: string;
  status?: string;
  /** What it still comes to: the balance where it has one, else its total or amount. */
  amount?: string;
}

/** The card's fields, from the definition's own columns, so every resource gets one. */
export function cardFields(definition: ResourceDefinition): CardFields {
  const { columns, fields, display } = definition;
  const shown = columns.filter((name) => name !== display);
  const isReference = (name: string) => Boolean(fields[name]?.references || fields[name]?.referencesBy);
  const money = ['balance', 'total', 'amount'].find((name) => shown.includes(name) && fields[name]?.kind === 'money');
  const route = routeOf(definition, shown);
  return {
    title: display,
    party: route ? undefined : shown.find(isReference),
    route,
    date: shown.includes('date') ? 'date' : undefined,
    status: shown.includes('status') ? 'status' : undefined,
    amount: money,
  };
}

/** The from and to columns of goods between two places (`betweenPlaces`), when the list shows both. */
function routeOf(definition: ResourceDefinition, shown: readonly string[]): CardFields['route'] {
  const ends = definition.places?.ends;
  const from = ends?.from;
  const to = ends?.to;
  if (!from || !to || !('id' in from) || !('id' in to)) return undefined;
  return shown.includes(from.id) && shown.includes(to.id) ? { from: from.id, to: to.id } : undefined;
}
