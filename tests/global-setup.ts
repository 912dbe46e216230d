import { existsSync } from 'node:fs';
import pg from 'pg';
import { ensureClientBuilt } from '../scripts/client-build';

/**
 * Runs once before the suites. Says in one line what is skipped and how to enable it; under
 * BODEGA_REQUIRE_ALL_SUITES=1 (set by .ci/run) a missing database or browser fails the run instead.
 */
export default async function setup(): Promise<void> {
  prepareEndToEnd();
  await preparePostgres();
}

function prepareEndToEnd(): void {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    if (process.env.BODEGA_REQUIRE_ALL_SUITES === '1') {
      throw new Error(`BODEGA_REQUIRE_ALL_SUITES=1 but Chromium is not at ${chromium}: the end-to-end suite cannot be skipped here.`);
    }
    console.log(`End-to-end suite skipped: no Chromium at ${chromium}; install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
    return;
  }
  ensureClientBuilt();
}

async function preparePostgres(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    if (process.env.BODEGA_REQUIRE_ALL_SUITES === '1') {
      throw new Error('BODEGA_REQUIRE_ALL_SUITES=1 but TEST_DATABASE_URL is not set: the PostgreSQL suite cannot be skipped here.');
    }
    console.log(
      'PostgreSQL suite skipped: set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to run the server tests against PostgreSQL too.',
    );
    return;
  }
  // Extensions are per database: create it once here, not from parallel test files.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_trgm with schema public');
  } finally {
    await client.end();
  }
}
