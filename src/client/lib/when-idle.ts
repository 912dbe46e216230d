/**
 * Runs `work` once the page is idle — after the first screen has drawn and answered — or after
 * `timeoutMs` at the latest; soon where the browser cannot tell.
 */
export function whenIdle(work: () => void, timeoutMs = 2000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => work(), { timeout: timeoutMs });
  else setTimeout(work, Math.min(timeoutMs, 200));
}
