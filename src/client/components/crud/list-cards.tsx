import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { ResourceDefinition } from '../../../domain/resource';
import { displayValue } from '../../lib/format';
import { isClientKey } from '../../lib/outbox';
import type { ApiRecord } from '../../lib/resource-queries';
import { cn } from '../../lib/utils';
import { Badge } from '../ui/badge';
import { cardFields } from './card-fields';
import { PendingBadge } from './pending-badge';
import { renderSlot } from './slots';

/**
 * A list on a phone: one card per record, with its number or name, party (or, for goods between
 * two places, where they go from and to), date, status and amount, the whole card one link to
 * the record. Below the card, what the table's actions column offers besides View (Edit,
 * Restore, Delete Permanently). From a tablet's width up the table shows instead.
 */
export function ListCards({
  definition,
  rows,
  caption,
  empty,
  canView,
  actionsOf,
}: {
  definition: ResourceDefinition;
  rows: readonly ApiRecord[];
  caption: string;
  /** What an empty list says; none while it is loading or not empty. */
  empty?: string;
  canView: boolean;
  actionsOf: (record: ApiRecord) => ReactNode;
}) {
  const card = cardFields(definition);
  const text = (name: string, record: ApiRecord) => {
    const plain = isClientKey(record.id) && name === 'id' ? 'New' : displayValue(name, definition.fields[name], record);
    return renderSlot(definition, 'list.cell', { name, record, text: plain }) ?? plain;
  };
  return (
    <section className="space-y-2" aria-label={caption}>
      <p className="text-sm text-muted-foreground">{caption}</p>
      {empty && <p className="py-10 text-center text-muted-foreground">{empty}</p>}
      <ul className="space-y-2">
        {rows.map((record) => {
          const details = [card.party && text(card.party, record), card.date && text(card.date, record)].filter(Boolean);
          const body = (
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="truncate font-medium">{text(card.title, record)}</p>
                {card.route && (
                  <p className="text-sm">
                    {text(card.route.from, record)} <span aria-hidden>→</span>
                    <span className="sr-only">to</span> {text(card.route.to, record)}
                  </p>
                )}
                {details.length > 0 && (
                  <p className="truncate text-sm text-muted-foreground">
                    {details.map((detail, index) => (
                      <span key={index}>
                        {index > 0 && ' · '}
                        {detail}
                      </span>
                    ))}
                  </p>
                )}
                {record.deleted_at && (
                  <Badge variant="outline" className="mt-1">
                    Trashed
                  </Badge>
                )}
                {record.pending && (
                  <span className="mt-1 inline-block">
                    <PendingBadge entry={record.pending} />
                  </span>
                )}
              </div>
              <div className="flex shrink-0 flex-col items-end gap-1">
                {card.amount && <span className="font-medium whitespace-nowrap tabular-nums">{text(card.amount, record)}</span>}
                {card.status && <Badge variant="secondary">{text(card.status, record)}</Badge>}
              </div>
            </div>
          );
          const actions = actionsOf(record);
          return (
            <li key={record.id} className={cn('rounded-lg border bg-card', record.deleted_at && 'text-muted-foreground')}>
              {canView ? (
                <Link
                  to="/$resource/$id"
                  params={{ resource: definition.name, id: String(record.id) }}
                  className="block min-h-11 rounded-lg p-3 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  {body}
                </Link>
              ) : (
                <div className="p-3">{body}</div>
              )}
              {actions && <div className="border-t px-3 empty:hidden">{actions}</div>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
