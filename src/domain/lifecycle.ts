import { todayInManila } from './documents';

/**
 * A document kind's lifecycle, declared once beside its definition and read by both ends: the
 * statuses it goes through, the transitions a user may take (void, cancel) and from which
 * statuses, the statuses in which it may go to the trash, and the documents that follow from it.
 * The server's transition routes, trash checks and create-from checks read it; so do the
 * client's status badges, action buttons, pre-filled forms and related-document lists.
 */

/**
 * How a status reads at a glance: `open` (nothing done yet), `outstanding` (something still
 * owed or to come), `complete`, `undone` (voided or cancelled), `neutral` (any other stage).
 */
export type StatusTone = 'open' | 'outstanding' | 'complete' | 'undone' | 'neutral';

export interface Transition {
  /** `void`, `cancel` or `close`: the route's last segment (`PATCH /api/{resource}/{id}/void`). */
  name: 'void' | 'cancel' | 'close';
  /** Its button's words, when its name alone would not say it: "Close the rest as lost". */
  label?: string;
  /** The statuses it may start from. */
  from: readonly string[];
  /** The status it leaves the document in. */
  to: string;
  /** The permission action it needs on the kind: a void undoes like a delete, a cancel changes like an edit. */
  permission: 'delete' | 'update' | 'create';
  /**
   * Taken as a document of another kind is made, by those who make it: that kind's `permission`,
   * where that kind is made (its places' operating end). Closing the rest of a transfer as lost is
   * its receivers' (`stock-receives`), at the destination.
   */
  asKind?: string;
  /** The reasons it asks for, one of which the body's `reason` must be ("other" with a `note`). */
  reasons?: readonly { value: string; label: string }[];
  /** What it undoes, in a sentence the confirmation shows: "The received goods leave stock …". */
  reverses: string;
  /**
   * Whoever made the document may also take it on the day they made it (Manila's date), with the
   * kind's create permission instead of `permission`, where they operate: a clerk undoes their own
   * mistake at once. Later, or someone else's, it needs `permission`.
   */
  byMakerSameDay?: boolean;
}

/** What a document made from this one starts with. */
export type Prefill =
  /** What is still open of each line: an order's lines left to receive, a request's left to transfer. */
  | 'open-lines'
  /** What arrived of each line: a return can take back only what was received. */
  | 'done-lines'
  /** Every line as it is: a bill of an order, an invoice of a quotation. */
  | 'all-lines'
  /** The balance still owed: a payment or a memorandum of a bill or an invoice. */
  | 'balance';

export interface FollowOn {
  /** The document made from this one: `receive-orders` of a purchase order. */
  resource: string;
  /** The action's label on this document: "Receive", "Record payment". */
  label: string;
  /** This document's statuses in which it may be made. */
  from: readonly string[];
  /** The field of the made document that names this one: `purchase_order_id`. */
  field: string;
  prefill: Prefill;
  /** Its create screen's route, when not `/{resource}/create/{id}`: `/stock-transfers/create/from-stock-request/$from`. */
  route?: string;
}

export interface Lifecycle {
  /** Every status, in the order a document goes through them, with its tone. */
  statuses: Readonly<Record<string, StatusTone>>;
  /** The transitions a user may take: void, cancel. */
  transitions: readonly Transition[];
  /** The statuses in which it may be trashed; absent: any (it moved nothing that needs undoing first). */
  trashable?: readonly string[];
  /** The documents made from it. */
  followOns?: readonly FollowOn[];
  /** The heading of its lines' `quantity_done` column, when later documents fulfil its lines: "Received". */
  linesDone?: string;
}

/** Every status of a kind, in order: its status field's options. */
export const statusValues = (lifecycle: Lifecycle): string[] => Object.keys(lifecycle.statuses);

/** "Partially received", "Void" … */
export const statusLabel = (value: string): string => value.charAt(0).toUpperCase() + value.slice(1).replaceAll('_', ' ');

/** The transitions open to a document in this status. */
export const transitionsFrom = (lifecycle: Lifecycle, status: string): Transition[] =>
  lifecycle.transitions.filter((transition) => transition.from.includes(status));

/** Whether a document in this status may go to the trash. */
export const trashableIn = (lifecycle: Lifecycle, status: string): boolean => !lifecycle.trashable || lifecycle.trashable.includes(status);

/** The documents that may be made from one in this status. */
export const followOnsFrom = (lifecycle: Lifecycle, status: string): FollowOn[] =>
  (lifecycle.followOns ?? []).filter((followOn) => followOn.from.includes(status));

/** "void" → "voided", "cancel" → "cancelled", "close" → "closed": the activity log's word and the toast's. */
export const pastTense = (name: Transition['name']): string => ({ void: 'voided', cancel: 'cancelled', close: 'closed' })[name];

/**
 * Why a document cannot go to the trash in this status, in words: "Bill B-… is unpaid: void it
 * before deleting it." — naming the transition that leads from it to a trashable status, if any.
 */
export function trashRefusal(lifecycle: Lifecycle, singular: string, number: string, status: string): string {
  const undoing = transitionsFrom(lifecycle, status).find((transition) => trashableIn(lifecycle, transition.to));
  const then = undoing ? `: ${undoing.name} it before deleting it` : '';
  return `${singular} ${number} is ${statusLabel(status).toLowerCase()}${then}.`;
}

/**
 * The instants a Manila date begins and ends (the end excluded), as ISO timestamps in UTC:
 * Manila keeps +08:00 all year.
 */
export function manilaDayBounds(day: string): { start: string; end: string } {
  const start = new Date(`${day}T00:00:00+08:00`);
  return { start: start.toISOString(), end: new Date(start.getTime() + 24 * 60 * 60 * 1000).toISOString() };
}

/**
 * Whether `userId` made the document today, Manila's date (its `created_by` and `created_at`):
 * then a transition declared `byMakerSameDay` is theirs to take. The server decides it again on
 * the locked row.
 */
export function madeTodayBy(document: Readonly<Record<string, unknown>>, userId: number | undefined, now = new Date()): boolean {
  if (userId === undefined || document.created_by !== userId || typeof document.created_at !== 'string') return false;
  const { start, end } = manilaDayBounds(todayInManila(now));
  const made = new Date(document.created_at).toISOString();
  return made >= start && made < end;
}
