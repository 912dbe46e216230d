import { todayInManila } from './documents';
import type { PermissionAction } from './permissions';

/**
 * A document kind's lifecycle, declared once beside its definition and read by both ends: the
 * statuses it goes through, the one a new document starts in and those its figures decide, every
 * named transition a user may take (a count's finish and post, a void, a cancel, a close) and from
 * which statuses, the statuses in which it may go to the trash, and the documents that follow from
 * it. The server's transition routes, stores, trash checks and create-from checks read it; so do
 * the client's status badges, action buttons, pre-filled forms and related-document lists.
 */

/**
 * How a status reads at a glance: `open` (nothing done yet), `outstanding` (something still
 * owed or to come), `complete`, `undone` (voided or cancelled), `neutral` (any other stage).
 */
export type StatusTone = 'open' | 'outstanding' | 'complete' | 'undone' | 'neutral';

interface TransitionCommon {
  /** The route's last segment (`PATCH /api/{resource}/{id}/post`): post, finish, void, cancel, close … */
  name: string;
  /** Its button's words, when its name and the kind's would not say it: "Close the rest as lost", "Post count". */
  label?: string;
  /** The statuses it may start from. */
  from: readonly string[];
  /** The status it leaves the document in. */
  to: string;
  /** The permission action it needs on the kind: a void undoes like a delete, a cancel changes like an edit. */
  permission: 'delete' | 'update' | 'create';
  /**
   * A permission it needs besides, on another kind, because of what it makes: posting a count
   * writes a stock adjustment (`create` of `stock-adjustments`).
   */
  alsoNeeds?: { permission: PermissionAction; resource: string };
  /**
   * Taken as a document of another kind is made, by those who make it: that kind's `permission`,
   * where that kind is made (its places' operating end). Closing the rest of a transfer as lost is
   * its receivers' (`stock-receives`), at the destination.
   */
  asKind?: string;
  /** The reasons it asks for, one of which the body's `reason` must be ("other" with a `note`). */
  reasons?: readonly { value: string; label: string }[];
  /**
   * Whoever made the document may also take it on the day they made it (Manila's date), with the
   * kind's create permission instead of `permission`, where they operate: a clerk undoes their own
   * mistake at once. Later, or someone else's, it needs `permission`.
   */
  byMakerSameDay?: boolean;
  /**
   * Why a document in a status it starts from may still not take it, in words following the
   * document's name ("is blind: finish counting it first …"); undefined when it may. The server
   * refuses it (409) and the client does not offer it.
   */
  blocked?: (document: Readonly<Record<string, unknown>>) => string | undefined;
  /**
   * What its refusal says after the status of a document it does not start from: "its counting is
   * over". Absent: "it can be voided only while unpaid".
   */
  over?: string;
  /** The history's word for it, when its past tense is not (`finished-counting`). */
  logged?: string;
  /**
   * Offered by the kind's own screen part rather than among the document's actions: a count's
   * finish and post are its counting sheet's, beside what was counted.
   */
  onSheet?: boolean;
}

/**
 * A named step of a document's life. `forward`: the document's own work goes on (a count's
 * counting finished, the count posted): offered as the next thing to do, its confirmation saying
 * what it `does`. `undo`: it undoes or closes what the document did (void, cancel, close): its
 * confirmation is a destructive one saying what it `reverses`.
 */
export type Transition = TransitionCommon &
  (
    | {
        direction: 'forward';
        /** What it does, in a sentence the confirmation shows: "A stock adjustment brings …". */
        does: string;
      }
    | {
        direction: 'undo';
        /** What it undoes, in a sentence the confirmation shows: "The received goods leave stock …". */
        reverses: string;
      }
  );

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

/**
 * Statuses that a document's figures decide rather than a transition: a bill's or an invoice's
 * unpaid, partially paid or paid, by what was settled of its total.
 */
export interface DerivedStatuses {
  /** The statuses it decides between. */
  statuses: readonly string[];
  /** Which of them the document's figures make it. */
  of(document: Readonly<Record<string, unknown>>): string;
}

/** A transition that undoes or closes what the document did. */
export type Undoing = Extract<Transition, { direction: 'undo' }>;

/** A transition by which the document's own work goes on. */
export type Step = Extract<Transition, { direction: 'forward' }>;

export interface Lifecycle {
  /** Every status, in the order a document goes through them, with its tone. */
  statuses: Readonly<Record<string, StatusTone>>;
  /** The status a new document of the kind takes. */
  start: string;
  /** The statuses its figures decide, and how. */
  derived?: DerivedStatuses;
  /** The transitions a user may take: post, void, cancel … */
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

/**
 * The transitions open to this document: from its status, and not blocked by anything else about
 * it (a blind count is posted only once its counting is finished).
 */
export const transitionsOpen = (lifecycle: Lifecycle, document: Readonly<Record<string, unknown>>): Transition[] =>
  transitionsFrom(lifecycle, String(document.status ?? '')).filter((transition) => !transition.blocked?.(document));

/** Whether a document in this status may go to the trash. */
export const trashableIn = (lifecycle: Lifecycle, status: string): boolean => !lifecycle.trashable || lifecycle.trashable.includes(status);

/** The documents that may be made from one in this status. */
export const followOnsFrom = (lifecycle: Lifecycle, status: string): FollowOn[] =>
  (lifecycle.followOns ?? []).filter((followOn) => followOn.from.includes(status));

/** The past tenses a rule does not make. */
const IRREGULAR: Readonly<Record<string, string>> = { void: 'voided', cancel: 'cancelled' };

/** "void" → "voided", "cancel" → "cancelled", "close" → "closed", "post" → "posted": the toast's word. */
export const pastTense = (name: string): string => IRREGULAR[name] ?? (name.endsWith('e') ? `${name}d` : `${name}ed`);

/** The history's word for a transition taken: "voided", "posted", "finished-counting". */
export const historyAction = (transition: Transition): string => transition.logged ?? pastTense(transition.name);

/** A transition's button: its own words, or its name and the kind's: "Void Bill", "Cancel Stock Count". */
export const transitionLabel = (transition: Transition, singular: string): string =>
  transition.label ?? `${statusLabel(transition.name)} ${singular}`;

/**
 * Why a document cannot go to the trash in this status, in words: "Bill B-… is unpaid: void it
 * before deleting it." — naming the transition that leads from it to a trashable status, if any.
 */
export function trashRefusal(lifecycle: Lifecycle, singular: string, number: string, status: string): string {
  const undoing = transitionsFrom(lifecycle, status).find(
    (transition) => transition.direction === 'undo' && trashableIn(lifecycle, transition.to),
  );
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
