import type { ResourceDefinition } from '../../../domain/resource';
import { lostRestErrors } from '../../../domain/resources/stock-transfers';
import type { FormSection } from '../crud/slots';
import type { LineRow } from './line-rows';

/**
 * A receive of a transfer as its form holds it before the line editor has loaded: the lines
 * counted as they arrived, and, when they are short of what was on its way, what happened to the
 * rest — kept in transit (more may come) or closed as lost, with why (`LOST_REASONS` of
 * domain/resources/stock-transfers.ts). The answer goes with the receive (`rest`, `lost_reason`,
 * `lost_note`), so a receive queued offline closes the rest when it is sent.
 */

/**
 * Whether a document made from its source counts what arrives, its lines starting blank beside
 * what is on its way, rather than taking what is open as it is: a receive of a transfer. Filled in,
 * a receive is saved without counting, and a short delivery passes unseen ("Receive all" fills it
 * in one tap when everything came).
 */
export const countsOnArrival = (definition: ResourceDefinition): boolean =>
  definition.document?.stock === 'in' && definition.document.twoLocations === true;

/** Every line filled with what is still on its way: all of it arrived. */
export const receivedAll = (rows: readonly LineRow[]): LineRow[] =>
  rows.map((row) => (row.open === undefined ? row : { ...row, quantity: String(row.open) }));

/** What the receiver says of the rest: `rest` blank until they choose; a reason and a note when it is closed as lost. */
export interface RestAnswer {
  rest: '' | 'keep' | 'close';
  lost_reason: string;
  lost_note: string;
}

/** What was on its way of one line of the transfer when the form opened. */
export interface Due {
  /** The transfer's line. */
  line: number;
  open: number;
  name: string;
}

/** A receive's lines in its form, with the answer about the rest. */
export interface ReceiveRows {
  rows: LineRow[];
  answer: RestAnswer;
  /** Each transfer line's quantity on its way: none known of a queued receive being corrected. */
  due: readonly Due[];
}

export const UNANSWERED: RestAnswer = { rest: '', lost_reason: '', lost_note: '' };

/** The fields of a receive's body that carry the answer: where the server's messages about it are. */
export const REST_FIELDS = ['rest', 'lost_reason', 'lost_note'] as const;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The answer a body gives (a queued receive being corrected), or none yet. */
function answerOf(body: Record<string, unknown> | undefined): RestAnswer {
  const rest = body?.rest === 'keep' || body?.rest === 'close' ? body.rest : '';
  return { rest, lost_reason: text(body?.lost_reason), lost_note: text(body?.lost_note) };
}

/** What of each transfer line the receive leaves on its way: a line counted short, left blank or taken off. */
export function shortOf({ rows, due }: Pick<ReceiveRows, 'rows' | 'due'>): (Due & { missing: number })[] {
  return due.flatMap((owed) => {
    const received = rows
      .filter((row) => row.source_line_id === owed.line)
      .reduce((sum, row) => sum + (Number(row.quantity) > 0 ? Number(row.quantity) : 0), 0);
    const missing = Math.round((owed.open - received) * 1000) / 1000;
    return missing > 0 ? [{ ...owed, missing }] : [];
  });
}

/** Whether a receive leaves some of its transfer on its way. */
export const leavesRest = (value: Pick<ReceiveRows, 'rows' | 'due'>): boolean => shortOf(value).length > 0;

/**
 * Whether the form asks what happened to the rest: when it leaves some of the transfer on its way;
 * a receive that no longer knows what was on its way (a queued one being corrected) keeps the
 * question when it was answered.
 */
export function asksRest(value: ReceiveRows): boolean {
  return value.due.length > 0 ? leavesRest(value) : value.answer.rest !== '';
}

/**
 * The answer as the receive sends it: nothing when nothing is short; `rest: null` while it is not
 * answered, which the server refuses under `rest` — nothing is received until the receiver says.
 */
export function restBody(value: ReceiveRows): Record<string, unknown> {
  if (!asksRest(value)) return {};
  const { rest, lost_reason: reason, lost_note: note } = value.answer;
  if (rest === 'keep') return { rest };
  if (rest === 'close') return { rest, lost_reason: reason || null, lost_note: note.trim() || null };
  return { rest: null };
}

/** A receive's lines as its form starts them from its transfer's, with what is on its way of each and no answer yet. */
export const receiving = (rows: LineRow[]): ReceiveRows => ({
  rows,
  answer: UNANSWERED,
  due: rows.flatMap((row) =>
    row.source_line_id && row.open !== undefined ? [{ line: row.source_line_id, open: row.open, name: row.item_name ?? '' }] : [],
  ),
});

/**
 * The form section of a kind that counts what arrives, from the documents' lines section: its
 * value holds the answer beside the lines, sent beside them.
 */
export function receiveSection(lines: FormSection): FormSection {
  return {
    ...lines,
    start: (definition, record) => ({ rows: lines.start(definition, record) as LineRow[], answer: answerOf(record), due: [] }),
    body: (value) => lines.body((value as ReceiveRows).rows),
    fields: (value) => restBody(value as ReceiveRows),
    // Offline, an unanswered or half-answered question is said before the receive is queued, as the server would.
    check: async (_rows, body) => restProblems(body),
  };
}

/** What the server refuses of the answer a receive sends, by its fields; nothing when it sends none. */
export function restProblems(body: Record<string, unknown>): Record<string, string[]> {
  if (!('rest' in body)) return {};
  if (body.rest === null) return { rest: ['Say what happened to the rest: keep it in transit, or close it as lost.'] };
  return body.rest === 'close' ? lostRestErrors(body.lost_reason, body.lost_note, { reason: 'lost_reason', note: 'lost_note' }) : {};
}
