import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, databaseKinds, demoBusinessIds, startTestApp, type TestApp } from '../../../tests/support/test-app';
import type { Db } from '../resources/store';
import { auditDatabase } from './audit';

describe.each(databaseKinds)('the database audit on %s', (kind) => {
  let test: TestApp;
  let db: Db;

  beforeAll(async () => {
    test = await startTestApp(kind);
    db = test.app.db as unknown as Db;
    const [main] = await demoBusinessIds(test);
    await test.signIn(ADMIN_EMAIL, undefined, main);
  });
  afterAll(() => test.close());

  it('finds the demo data sound', async () => {
    expect(await auditDatabase(db)).toEqual([]);
  });
});
