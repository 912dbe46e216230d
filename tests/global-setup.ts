import pg from 'pg';

/**
 * Runs once before the suites. Says in one line what is skipped and how to enable it; under
 * BODEGA_REQUIRE_ALL_SUITES=1 (set by .ci/run) a missing database fails the run instead.
 */
export default async function setup(): Promise<void> {
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
