import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig, DatabaseKind } from '../../src/server/db/dialect';

/**
 * Databases no one has migrated, for suites that migrate or copy databases themselves: new SQLite
 * files in a folder of their own, new schemas of the PostgreSQL test database. `removeAll` (in an
 * `afterAll`) deletes the folder and drops the schemas.
 */
export function freshDatabases(name: string) {
  const directory = mkdtempSync(join(tmpdir(), `bodega-${name}-`));
  const schemas: string[] = [];
  const tag = () => randomBytes(6).toString('hex');
  const sqliteFile = (): DatabaseConfig => ({ url: `file:${join(directory, `${tag()}.sqlite`)}` });
  async function postgresSchema(): Promise<DatabaseConfig> {
    const url = process.env.TEST_DATABASE_URL as string;
    const schema = `bodega_${name.replaceAll('-', '_')}_${tag()}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    schemas.push(schema);
    return { url, schema };
  }
  return {
    directory,
    sqliteFile,
    postgresSchema,
    fresh: async (kind: DatabaseKind): Promise<DatabaseConfig> => (kind === 'sqlite' ? sqliteFile() : postgresSchema()),
    async removeAll(): Promise<void> {
      rmSync(directory, { recursive: true, force: true });
      if (schemas.length === 0) return;
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      for (const schema of schemas) await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}
