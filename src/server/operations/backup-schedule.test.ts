import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startedOnce } from '../../../tests/support/started';
import { ADMIN_EMAIL, databaseKinds, startDemo, startTestApp, userWithPermissions } from '../../../tests/support/test-app';
import type { TestApp } from '../../../tests/support/test-app';
import { PERMISSION_ACTIONS, PERMISSION_PREFIXES, permissionName, VIEW_ACTIVITY_PERMISSION } from '../../domain/permissions';
import { composeEngine } from '../composition';
import { openDatabase } from '../db/dialect';
import { auditDatabase } from '../documents/audit';
import { changesAfter, parseCursor } from '../sync/change-log';
import { claimScheduledBackup, recordBackup, runTool } from './backup';
import { restoreDatabase } from './restore';

/**
 * What masters see of the backups (and no one else), on each database; and on PostgreSQL, the
 * scheduled backup taken by one of two servers sharing the database, then restored (a device
 * that followed the replaced database downloads again).
 */

const workDir = mkdtempSync(join(tmpdir(), 'bodega-backup-schedule-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const EVERY_HOUR = { label: '1h', ms: 3_600_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The audit reads the engine's stores, composed here without an app.
composeEngine();

describe.each(databaseKinds)('backups seen by masters on %s', (kind) => {
  const world = startedOnce(() => startDemo(kind, { demoData: true }), false);

  it('shows masters the last backups, the newest first, and the last that succeeded', async () => {
    const none = await world.admin.send('GET', '/api/operations/backups');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ every: null, data: [], last_succeeded: null });

    await recordBackup(world.test.app.db, {
      kind: 'scheduled',
      startedAt: new Date('2026-11-22T23:00:00.000Z'),
      seconds: 1.5,
      path: '/var/backups/bodega-2026-11-22T23-00-00Z.sqlite',
      bytes: 4096,
    });
    await recordBackup(world.test.app.db, {
      kind: 'scheduled',
      startedAt: new Date('2026-11-23T05:00:00.000Z'),
      seconds: 0.25,
      error: 'pg_dump was not found on the PATH',
    });
    const both = await world.admin.send('GET', '/api/operations/backups');
    expect(both.status).toBe(200);
    const succeeded = {
      id: expect.any(Number),
      kind: 'scheduled',
      started_at: '2026-11-22T23:00:00.000Z',
      seconds: 1.5,
      file: 'bodega-2026-11-22T23-00-00Z.sqlite',
      bytes: 4096,
      error: null,
    };
    expect(both.body.data).toEqual([
      {
        id: expect.any(Number),
        kind: 'scheduled',
        started_at: '2026-11-23T05:00:00.000Z',
        seconds: 0.25,
        file: null,
        bytes: null,
        error: 'pg_dump was not found on the PATH',
      },
      succeeded,
    ]);
    expect(both.body.last_succeeded).toEqual(succeeded);
  });

  it('refuses everyone else, whatever else they hold', async () => {
    const everything = PERMISSION_PREFIXES.flatMap((prefix) => PERMISSION_ACTIONS.map((action) => permissionName(action, prefix)));
    const { session: manager } = await userWithPermissions(world.test, world.businesses[0], [...everything, VIEW_ACTIVITY_PERMISSION]);
    const { session: clerk } = await userWithPermissions(world.test, world.businesses[0], []);
    for (const user of [manager, clerk]) {
      const answer = await user.send('GET', '/api/operations/backups');
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ message: 'This action is unauthorized.' });
    }
    expect((await world.admin.send('GET', '/api/operations/backups', undefined, { 'business-id': '999999' })).status).toBe(403);
    expect(world.test.errorLines).toEqual([]);
  });
});

describe.skipIf(!databaseKinds.includes('postgres'))('scheduled backups of a PostgreSQL database shared by two servers', () => {
  let test: TestApp;
  let twin: Awaited<ReturnType<TestApp['secondInstance']>>;
  let schema: string;
  const dir = join(workDir, 'postgres');

  beforeAll(async () => {
    test = await startTestApp('postgres', { backups: { dir, keep: 5, every: EVERY_HOUR } });
    twin = await test.secondInstance();
    schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(test.app.db)).rows[0].schema;
  });
  afterAll(async () => {
    await twin?.close();
    await test?.close();
  });

  it('is taken by exactly one of them, dumps their schema alone, and is shown to masters through either', async () => {
    // Both start asking at once: a backup is due, as none was ever taken.
    await Promise.all([test.app.ready(), twin.app.ready()]);
    const rows = () =>
      test.app.db
        .selectFrom('backups' as never)
        .selectAll()
        .execute() as Promise<Record<string, unknown>[]>;
    for (let waited = 0; (await rows()).length === 0 && waited < 30_000; waited += 100) await sleep(100);
    await sleep(1000);
    const recorded = await rows();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ kind: 'scheduled', error: null });
    const files = readdirSync(dir);
    expect(files).toEqual([recorded[0].file]);
    expect(files[0]).toMatch(/^bodega-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.pgdump$/);

    const list = await runTool('pg_restore', ['--list', join(dir, files[0])]);
    expect(list).toContain(` TABLE ${schema} brands `);
    expect(list).not.toMatch(/ TABLE (?!bodega_test)\S+ brands /);
    expect(list).not.toMatch(new RegExp(` TABLE bodega_test_(?!${schema.slice('bodega_test_'.length)})`));

    const admin = await test.signIn(ADMIN_EMAIL);
    const seen = await twin.on(admin).send('GET', '/api/operations/backups');
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ every: '1h', data: [{ file: files[0], error: null }], last_succeeded: { file: files[0] } });
  });

  it('lets one server claim each due backup when both ask at the same moment', async () => {
    for (let round = 0; round < 10; round++) {
      await test.app.db.updateTable('backup_schedule').set({ last_started_at: null }).execute();
      const claims = await Promise.all([
        claimScheduledBackup(test.app.db, EVERY_HOUR, 'first'),
        claimScheduledBackup(twin.app.db, EVERY_HOUR, 'second'),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      // Claimed a moment ago: not due again for an hour.
      expect(await claimScheduledBackup(twin.app.db, EVERY_HOUR, 'second')).toBe(false);
    }
  });

  it('restores the backup into the schema once no server uses it', async () => {
    const admin = await test.signIn(ADMIN_EMAIL);
    const [file] = readdirSync(dir).filter((name) => name.startsWith('bodega-'));
    const before = await test.app.db.selectFrom('brands').select('name').orderBy('id').execute();
    const later = await admin.send('POST', '/api/brands', { name: 'Made after the backup' });
    expect(later.status).toBe(201);
    // A device that followed the database up to now: after the restore it downloads its working set again.
    const cursor = (await admin.send('GET', '/api/sync')).body.data.cursor as string;
    const database = { url: process.env.TEST_DATABASE_URL as string, schema };

    await expect(restoreDatabase(database, join(dir, file), dir)).rejects.toThrow(
      /Bodega servers hold \d+ connection\(s\) to .* \(schema bodega_test_/,
    );
    await twin.close();
    await test.app.close();

    const report = await restoreDatabase(database, join(dir, file), dir);
    expect(report.checked).toEqual([
      expect.stringMatching(/^pg_restore reads its \d+ entries$/),
      expect.stringMatching(/migrations are all known/),
    ]);
    expect(report.keptAside).toMatch(new RegExp(`\\.${schema}\\.before-restore-.*\\.pgdump$`));
    expect(report.businesses).toBe(2);
    const db = openDatabase(database).db;
    try {
      expect(await db.selectFrom('brands').select('name').orderBy('id').execute()).toEqual(before);
      expect(await auditDatabase(db)).toEqual([]);
      expect(await changesAfter(db, admin.businessId!, parseCursor(cursor), 100)).toBeNull();
    } finally {
      await db.destroy();
    }
    // The replaced schema was dumped first: it holds the brand made after the backup.
    const kept = await runTool('pg_restore', ['--data-only', '--table=brands', '--file=-', report.keptAside!]);
    expect(kept).toContain('Made after the backup');
  });
});
