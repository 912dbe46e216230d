import { afterEach, expect } from 'vitest';
import { auditDatabase } from '../../src/server/documents/audit';
import type { TestApp } from './test-app';

/**
 * Registers the checks a suite makes after each of its tests: the database passes the audit and,
 * unless `errorLines: false`, the server logged no error. `current` gives the suite's app, started in its `beforeAll`.
 */
export function auditAfterEach(current: () => TestApp, { errorLines = true }: { errorLines?: boolean } = {}) {
  afterEach(async () => {
    const test = current();
    expect(await auditDatabase(test.app.db)).toEqual([]);
    if (errorLines) expect(test.errorLines).toEqual([]);
  });
}
