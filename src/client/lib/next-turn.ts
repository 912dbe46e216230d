/**
 * Lets the browser draw and answer input before long work goes on: `scheduler.yield()` where the
 * browser has it (not slowed in a hidden tab, as timers are), else a timer's next turn.
 */
export function nextTurn(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Lets the browser draw and answer input between two parts of short work where it can be asked
 * without a timer (`scheduler.yield()`), and goes straight on where it cannot: work that must not
 * wait behind timers (a store being opened) is never held up by them.
 */
export function yieldWhereAble(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return typeof scheduler?.yield === 'function' ? scheduler.yield() : Promise.resolve();
}
