import { documentNumber, type Location } from '../../domain/documents';
import { findResource } from '../../domain/resources/registry';

/**
 * The final number a queued create took from the device's block of numbers (number-blocks.ts), as
 * the screens show it and its paper prints it. Apart from the blocks themselves, which hold the
 * offline store: every screen that lists queued changes reads this, the first one too.
 */

type Body = Record<string, unknown>;

/** The place a document at one place is made at, by its body. */
export function locationIn(body: Body): Location | null {
  if (typeof body.branch_id === 'number') return { type: 'branch', id: body.branch_id };
  if (typeof body.warehouse_id === 'number') return { type: 'warehouse', id: body.warehouse_id };
  return null;
}

/** The number a queued create took from a block, as it will be printed; none when it numbers on sync. */
export function numberOfQueued(resource: string, body: unknown): string | null {
  const spec = findResource(resource)?.document;
  const sent = (body ?? {}) as Body;
  const numbered = sent.numbered as { sequence?: unknown } | undefined;
  const location = locationIn(sent);
  if (!spec || !location || typeof numbered?.sequence !== 'number' || typeof sent.date !== 'string') return null;
  return documentNumber(spec.prefix, sent.date, location, numbered.sequence);
}
