import { afterAll, beforeAll } from 'vitest';
import { auditAfterEach } from './audited';
import type { TestApp } from './test-app';

/**
 * Registers the start a suite's tests share: `start()` in its `beforeAll`, the app it gives closed
 * in its `afterAll` and, unless `audit` is false, audited after each test as `auditAfterEach`
 * does with those options. The object returned holds what `start` gave once the suite has
 * started: read it in tests and later hooks, not while declaring them.
 */
export function startedOnce<Started extends { test: TestApp }>(
  start: () => Promise<Started>,
  audit: Parameters<typeof auditAfterEach>[1] | false = {},
): Started {
  const started = {} as Started;
  beforeAll(async () => {
    Object.assign(started, await start());
  });
  afterAll(() => started.test?.close());
  if (audit !== false) auditAfterEach(() => started.test, audit);
  return started;
}
