import { useBlocker } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { referenceKey } from '../../../domain/resource';
import { useDraft } from '../../lib/drafts';
import { clockTime } from '../../lib/freshness';
import { offlineDatabase } from '../../lib/offline-store';
import { Button } from '../ui/button';
import { deferred } from '../ui/deferred';
import type { FormValues } from './field-input';
import type { LeaveFormDialogProps } from './leave-form-dialog';

/** The names shown for the records picked in a form, by field: the id picked and its name. */
export type PickedNames = Record<string, { id: unknown; display: string }>;

/**
 * What a form keeps as its draft (lib/drafts.ts): what it holds, the names its pickers show (a
 * restored customer reads as its name, not its id), and for an edit the version of the record it
 * began from.
 */
export interface FormDraft {
  values: FormValues;
  names: PickedNames;
  version?: number;
}

/** Whether two values of a form hold the same: plain data compared through, the order of keys aside. */
export function sameValues(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const [left, right] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].every((key) => sameValues(left[key], right[key]));
}

/** `record` (or what the form was given) with the names of what was picked since, for the pickers to show. */
export function withNames(record: Record<string, unknown> | undefined, names: PickedNames, values: FormValues) {
  const picked = Object.entries(names).filter(([name, { id }]) => values[name] === id);
  if (picked.length === 0) return record;
  return {
    ...record,
    ...Object.fromEntries(
      picked.flatMap(([name, { id, display }]) => [
        [name, id],
        [referenceKey(name), { id, display }],
      ]),
    ),
  };
}

/**
 * A form's draft and the asking before it is left. The draft of screen `draftKey` is kept while
 * the form holds anything other than `start`, and taken back when the screen opens again (an
 * edit's only while its record is still at `version`: else it is dropped, and `stale` says so).
 * While the form holds changes not saved, leaving it by a link or Back asks first (`leaving`),
 * and closing or reloading the tab gets the browser's own question; `saved` lets the form go
 * without asking once its save resolved.
 */
export function useFormDraft({
  draftKey,
  values,
  start,
  names,
  version,
  label,
  take,
}: {
  draftKey: string;
  values: FormValues;
  start: FormValues;
  names: PickedNames;
  /** The record's version, when editing. */
  version?: number;
  label: string;
  /** Fills the form with a draft taken back. */
  take: (draft: FormDraft) => void;
}) {
  const kept = useMemo<FormDraft>(() => ({ values, names, ...(version !== undefined && { version }) }), [values, names, version]);
  const [stale, setStale] = useState(false);
  const draft = useDraft<FormDraft>(draftKey, kept, {
    blank: (held) => sameValues(held.values, start),
    restore: (held) => {
      if (version !== undefined && held.version !== version) {
        setStale(true);
        return false;
      }
      take({ ...held, names: held.names ?? {} });
    },
    label,
  });

  const unsaved = !sameValues(values, start);
  const guard = useRef({ unsaved, saved: false });
  useEffect(() => {
    guard.current.unsaved = unsaved;
  }, [unsaved]);
  const asks = useCallback(() => guard.current.unsaved && !guard.current.saved, []);
  const leaving = useBlocker({
    // A move within the screen (its search changing) is no leaving.
    shouldBlockFn: useCallback(({ current, next }) => asks() && current.pathname !== next.pathname, [asks]),
    // Once the user's store is gone (a sign-out deletes it, and the page with it), nothing is kept to ask about.
    enableBeforeUnload: useCallback(() => asks() && offlineDatabase() !== null, [asks]),
    withResolver: true,
  });
  const saved = useCallback(() => {
    guard.current.saved = true;
  }, []);
  return { draft, stale, leaving, saved };
}

/** "Restored your unsaved draft from 10:42 · Discard", or that an edit's draft was dropped. */
export function DraftNotice({
  savedAt,
  stale,
  singular,
  onDiscard,
}: {
  savedAt: number | null;
  stale: boolean;
  singular: string;
  onDiscard: () => void;
}) {
  if (savedAt !== null) {
    return (
      <p role="status" className="flex flex-wrap items-center gap-x-2 rounded-md border bg-muted/40 px-3 text-sm">
        <span>Restored your unsaved draft from {clockTime(savedAt)}</span>
        <span aria-hidden>·</span>
        <Button type="button" variant="link" className="px-0" onClick={onDiscard}>
          Discard
        </Button>
      </p>
    );
  }
  if (!stale) return null;
  return (
    <p role="status" className="rounded-md border bg-muted/40 px-3 py-2 text-sm">
      Your unsaved draft of this form was dropped: this {singular.toLowerCase()} was changed since it was begun.
    </p>
  );
}

/** "Leave this form?" (leave-form-dialog.tsx, loaded when first asked). */
export const LeaveFormDialog = deferred<LeaveFormDialogProps>(
  () => import('./leave-form-dialog').then(({ LeaveFormDialogBody }) => LeaveFormDialogBody),
  ({ open }) => open,
);
