import type { PlaceAccess } from '../../domain/places';
import type { Db, Scope } from '../db/scope';

/**
 * A list's answer, kept as it went out (its JSON text), while the database has not changed
 * (`changeMark`, db/dialect.ts), as a searched list's count is (resources/search-counts.ts). A
 * list's page of the newest records spent its time in no one place — the page's statement with
 * its reference joins, building it, the rows made records, the JSON — and a screen, or several
 * users on one, asks the same page again and again while nothing changes. Any write anywhere to
 * the database changes the mark, and with it ends every kept answer; an answer is kept only when
 * the mark read after its reads is the one read before them, so no write landed among them, and
 * it is answered again only under that mark: a kept answer is always the one the database would
 * give now.
 *
 * An answer is kept for the scope it was read for (its business, its user, their permissions and
 * their places: which records a list shows, and which fields, a document's costs for one), and for
 * the request's URL, path and query as sent: its parameters decide the records, and its `links`
 * repeat the query as it was written. Nothing in a list depends on the day or the hour, or on
 * the request beyond these.
 */

/** Answers kept at most, of every list and user together. */
const KEPT_MOST = 1_000;
/** Characters kept at most, answers and their keys together: JSON is mostly ASCII, a byte each. */
const KEPT_TEXT_MOST = 4_000_000;
/** A larger answer (a page of 100 documents with their lines) is not kept: it would push out dozens of others. */
const ANSWER_TEXT_MOST = 256_000;

interface KeptLists {
  /** The database's mark when these were read: the answers hold while it does. */
  mark: string;
  /** By key (`listKey`), oldest first. */
  answers: Map<string, string>;
  /** Their characters and their keys'. */
  text: number;
}

const kept = new WeakMap<Db, KeptLists>();

/** The answer kept for `key` under this mark, if any. */
export function keptList(db: Db, mark: string, key: string): string | undefined {
  const lists = kept.get(db);
  return lists?.mark === mark ? lists.answers.get(key) : undefined;
}

/**
 * Keeps `answer` under `mark`, read before the answer's reads and again after them. Answers kept
 * under another mark are of another state of the database: they go (all of them, as any write
 * ends them all). Then the oldest go until the new one fits.
 */
export function keepList(db: Db, mark: string, key: string, answer: string): void {
  const size = key.length + answer.length;
  if (answer.length > ANSWER_TEXT_MOST) return;
  let lists = kept.get(db);
  if (!lists || lists.mark !== mark) kept.set(db, (lists = { mark, answers: new Map(), text: 0 }));
  const before = lists.answers.get(key);
  if (before !== undefined) {
    lists.answers.delete(key);
    lists.text -= key.length + before.length;
  }
  for (const [oldest, answered] of lists.answers) {
    if (lists.answers.size < KEPT_MOST && lists.text + size <= KEPT_TEXT_MOST) break;
    lists.answers.delete(oldest);
    lists.text -= oldest.length + answered.length;
  }
  lists.answers.set(key, answer);
  lists.text += size;
}

/**
 * The permissions and places of a scope as part of a key. A caller is kept for two seconds
 * (`KnownCallers`, plugins/auth.ts) and its requests share one set and one place access, so each
 * is written out once, not on every request.
 */
const permissionsWritten = new WeakMap<ReadonlySet<string>, string>();
const placesWritten = new WeakMap<PlaceAccess, string>();

function written<T extends object>(memo: WeakMap<T, string>, value: T, write: (value: T) => string): string {
  let text = memo.get(value);
  if (text === undefined) memo.set(value, (text = write(value)));
  return text;
}

/** What a list's answer depends on beyond the database: see the top of this file. */
export function listKey(resource: string, scope: Scope, url: string): string {
  const permissions = written(permissionsWritten, scope.permissions, (names) => JSON.stringify([...names].sort()));
  const places = scope.places ? written(placesWritten, scope.places, (access) => JSON.stringify(access)) : 'every';
  return `${resource} ${scope.businessId} ${scope.userId} ${permissions} ${places} ${url}`;
}
