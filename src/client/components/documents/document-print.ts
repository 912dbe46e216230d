import { useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import type { ResourceDefinition } from '../../../domain/resource';
import { submitChange } from '../../lib/outbox';
import { printAs, type PrintLayout } from '../../lib/print';
import type { ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';

/**
 * Printing a document, original or reprint. Every print is counted by the server first
 * (`POST /api/{resource}/{id}/prints`, through the outbox like every change): its answer says
 * which copy this is, decided in the database, so of two devices printing one document at once
 * exactly one prints the original. Every later copy says REPRINT, with when it was printed.
 *
 * Offline (or when the answer is slow) the paper does not wait: the print stays queued, and the
 * copy is a reprint when the document's last read counted a print, or this device printed it
 * already. Two devices printing one document offline may then both print it as the original.
 */

/** A print as the server counted it. */
interface PrintCounted {
  copy: number;
  printed_at: string;
}

/** Which copy is on paper: a reprint (every print after the first) says so, and when it was printed when known. */
export interface PrintedCopy {
  reprint: boolean;
  at: string | null;
}

/** How long a print waits for the server to say which copy it is before it prints with what the device knows. */
const ANSWER_WAIT_MS = 4000;

/** The prints this device counted of each document (`{business}|{resource}|{id}`), since its record was last read. */
const printedHere = new Map<string, number>();
/** The copy going to paper now, from the print action until the print dialog closes. */
let printing: { key: string; copy: number; at: string } | null = null;
const watchers = new Set<() => void>();

const keyOf = (businessId: number | null, definition: ResourceDefinition, record: ApiRecord) =>
  `${String(businessId)}|${definition.name}|${String(record.id)}`;

/** The prints of a document known here: its read's count, or more when this device printed it since. */
const knownPrints = (key: string, record: ApiRecord) => Math.max(Number(record.prints ?? 0), printedHere.get(key) ?? 0);

function setPrinting(value: typeof printing): void {
  printing = value;
  for (const watcher of watchers) watcher();
}

const subscribe = (watcher: () => void) => {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
};

/**
 * The copy a document's paper is: while it is printed through `printDocument`, the copy the server
 * counted; otherwise (a print from the browser's own menu) a reprint once it was printed before.
 */
export function usePrintedCopy(definition: ResourceDefinition, record: ApiRecord): PrintedCopy {
  const key = keyOf(useActiveBusinessId(), definition, record);
  const current = useSyncExternalStore(subscribe, () => printing);
  if (current?.key === key) return { reprint: current.copy > 1, at: current.copy > 1 ? current.at : null };
  return { reprint: knownPrints(key, record) > 0, at: null };
}

/** The server's count of this print, or null when it could not answer in time (queued, offline, refused). */
async function countPrint(businessId: number | null, definition: ResourceDefinition, record: ApiRecord): Promise<PrintCounted | null> {
  const counted = submitChange<{ data: PrintCounted }>({
    businessId,
    resource: definition.name,
    action: 'print',
    recordId: record.id,
    method: 'POST',
    path: `/api/${definition.name}/${String(record.id)}/prints`,
    label: `Print ${definition.singular} ${String(record.number ?? '')}`.trim(),
  }).then(
    (settled) => (settled.sent ? settled.data.data : null),
    // A refused count never keeps the paper from printing.
    () => null,
  );
  const late = new Promise<null>((resolve) => setTimeout(() => resolve(null), ANSWER_WAIT_MS));
  return Promise.race([counted, late]);
}

/** Prints the document on `layout`'s paper, counted first: the copy says whether it is a reprint. */
export async function printDocument(
  businessId: number | null,
  definition: ResourceDefinition,
  record: ApiRecord,
  layout: PrintLayout,
): Promise<void> {
  const key = keyOf(businessId, definition, record);
  const known = knownPrints(key, record);
  const counted = await countPrint(businessId, definition, record);
  const copy = counted?.copy ?? known + 1;
  printedHere.set(key, Math.max(copy, printedHere.get(key) ?? 0));
  // The copy is on the page before the browser takes it to paper.
  flushSync(() => setPrinting({ key, copy, at: counted?.printed_at ?? new Date().toISOString() }));
  window.addEventListener('afterprint', () => setPrinting(null), { once: true });
  printAs(layout);
}
