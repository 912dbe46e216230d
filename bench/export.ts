import { existsSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { buildApp } from '../src/server/app';
import { ADMIN, APP_CONFIG, BUSINESS_ID, createBenchDatabase, DATABASE_PATH, ITEM_COUNT } from './bench-database';

/**
 * The CSV export of the million-item list, over HTTP: time to the first byte, time to the last,
 * rows and bytes received, and how much the server process grew while it streamed (sampled every
 * 20 ms), which shows whether the export is held in memory or passed through.
 */

export interface ExportMeasure {
  rows: number;
  megabytes: number;
  firstByteMs: number;
  totalMs: number;
  rowsPerSecond: number;
  baselineRssMb: number;
  peakRssGrowthMb: number;
}

function itemCount(): number {
  if (!existsSync(DATABASE_PATH)) return 0;
  const raw = new SQLite(DATABASE_PATH, { readonly: true });
  try {
    return Number((raw.prepare('select count(*) as count from items').get() as { count: number }).count);
  } finally {
    raw.close();
  }
}

export async function measureExport(): Promise<ExportMeasure> {
  if (itemCount() !== ITEM_COUNT) await createBenchDatabase();
  const app = await buildApp(APP_CONFIG);
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify(ADMIN),
    });
    const cookie = String(login.headers.get('set-cookie')).split(';')[0];

    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);

    const started = performance.now();
    const response = await fetch(`${base}/api/items/export.csv?order_by=asc&order_by_field_name=name`, {
      headers: { cookie, 'business-id': String(BUSINESS_ID) },
    });
    if (!response.ok || !response.body) throw new Error(`The export answered ${response.status}`);
    let firstByteMs = 0;
    let bytes = 0;
    let lines = 0;
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += read.value.byteLength;
      for (const byte of read.value) if (byte === 10) lines += 1;
    }
    const totalMs = performance.now() - started;
    clearInterval(sampler);

    const rows = lines - 1;
    if (rows !== ITEM_COUNT) throw new Error(`The export held ${rows} rows, expected ${ITEM_COUNT}`);
    return {
      rows,
      megabytes: bytes / 1024 / 1024,
      firstByteMs,
      totalMs,
      rowsPerSecond: rows / (totalMs / 1000),
      baselineRssMb: baseline / 1024 / 1024,
      peakRssGrowthMb: (peak - baseline) / 1024 / 1024,
    };
  } finally {
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await measureExport());
}
