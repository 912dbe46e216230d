import type { WorkingSetStatus } from '../../src/client/lib/working-set';

/** 10:42 in Manila (UTC+8) on 28 November 2026, when the device last synced, and 1 pm the same day, the suites' now. */
export const at1042 = Date.parse('2026-11-28T02:42:00Z');
export const now = Date.parse('2026-11-28T05:00:00Z');

/** The working set's status the device shows: following, live and online, synced at 10:42, but for `changes`. */
export const status = (changes: Partial<WorkingSetStatus>): WorkingSetStatus => ({
  phase: 'following',
  live: true,
  online: true,
  offlineSince: null,
  syncedAt: at1042,
  progress: null,
  problem: null,
  ...changes,
});
