/**
 * Lets the browser draw and answer input before long work goes on: `scheduler.yield()` where the
 * browser has it (not slowed in a hidden tab, as timers are), else a timer's next turn.
 */
export function nextTurn(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
