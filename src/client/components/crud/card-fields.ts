import type { ResourceDefinition } from '../../../domain/resource';

/** What a record's card on a phone shows, in place of a table row too wide for the screen. */
export interface CardFields {
  /** Its number or name. */
  title: string;
  /** Who or where it is about: the first reference among its columns (customer, supplier, branch…). */
  party?: string;
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
  return {
    title: display,
    party: shown.find(isReference),
    date: shown.includes('date') ? 'date' : undefined,
    status: shown.includes('status') ? 'status' : undefined,
    amount: money,
  };
}
