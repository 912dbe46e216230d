import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { buildApp } from '../src/server/app';
import type { AppConfig } from '../src/server/config';
import { seed } from '../src/server/seed';
import { ADMIN } from './bench-database';
import { signedIn } from './overview';

/**
 * The import benchmark: 50,000 item rows, as the import screen sends them after reading a
 * spreadsheet, into a fresh SQLite business with the demo data — one `POST /api/imports/items`
 * through `app.inject` (JSON parsing, the checks of every row, the writes in one transaction), the
 * check first as the screen does, then the import, then the same rows again (all skipped).
 */

const DATA_DIR = new URL('./.data/', import.meta.url).pathname;
const DATABASE_PATH = `${DATA_DIR}imports.sqlite`;
export const IMPORT_ROWS = 50_000;
export const IMPORT_TARGET_MS = 60_000;

const CONFIG: AppConfig = { database: { url: `file:${DATABASE_PATH}` }, loginAttemptsPerMinute: 1000, secureCookies: false, logger: false };

export interface ImportFigures {
  date: Date;
  rows: number;
  bodyBytes: number;
  checkMs: number;
  importMs: number;
  againMs: number;
  brandsMade: number;
  loadAverage: number;
}

/** Rows like a shop's item list: 1,000 brands (new to the business), the demo's units, every fourth without a barcode. */
export function itemRows(count: number): Record<string, string>[] {
  const units = ['pc', 'box', 'pack', 'doz'];
  return Array.from({ length: count }, (_, index) => ({
    sku: `IMP-${String(index + 1).padStart(6, '0')}`,
    name: `Imported item ${index + 1} ${['Sardines', 'Noodles', 'Vinegar', 'Soy Sauce', 'Coffee'][index % 5]} ${(index % 7) * 50 + 100}g`,
    barcode: index % 4 === 3 ? '' : `2${String(index + 1).padStart(12, '0')}`,
    unit: units[index % units.length],
    brand: `Brand ${(index % 1000) + 1}`,
    item_type: index % 2 === 0 ? 'Grocery' : 'Household',
    reorder_level: String((index % 10) * 6),
    vat_category: index % 3 === 0 ? 'exempt' : 'VATable',
  }));
}

export async function runImportBench(): Promise<ImportFigures> {
  mkdirSync(DATA_DIR, { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${DATABASE_PATH}${suffix}`, { force: true });
  const app = await buildApp(CONFIG);
  try {
    await seed(app.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demoData: true });
    const headers = { ...(await signedIn(app)), 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
    const rows = itemRows(IMPORT_ROWS);
    const post = async (body: object) => {
      const payload = JSON.stringify(body);
      const started = performance.now();
      const response = await app.inject({ method: 'POST', url: '/api/imports/items', headers, payload });
      const ms = performance.now() - started;
      if (response.statusCode !== 200) throw new Error(`The import answered ${response.statusCode}: ${response.body.slice(0, 500)}`);
      return { ms, bytes: payload.length, data: JSON.parse(response.body).data };
    };
    const check = await post({ rows, check_only: true });
    if (check.data.created !== IMPORT_ROWS) throw new Error(`The check would create ${check.data.created} items, not ${IMPORT_ROWS}.`);
    const imported = await post({ rows });
    if (imported.data.created !== IMPORT_ROWS) throw new Error(`The import created ${imported.data.created} items, not ${IMPORT_ROWS}.`);
    const again = await post({ rows });
    if (again.data.skipped !== IMPORT_ROWS) throw new Error(`Imported again, ${again.data.skipped} rows were skipped, not ${IMPORT_ROWS}.`);
    return {
      date: new Date(),
      rows: IMPORT_ROWS,
      bodyBytes: imported.bytes,
      checkMs: check.ms,
      importMs: imported.ms,
      againMs: again.ms,
      brandsMade: imported.data.made.length,
      loadAverage: loadavg()[0],
    };
  } finally {
    await app.close();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function importSection(figures: ImportFigures): string {
  const met = figures.importMs < IMPORT_TARGET_MS;
  return `## Imports

Written by \`npm run bench\` or \`npm run bench -- --imports-only\` (bench/imports.ts).

- Date: ${figures.date.toISOString()}; 1-minute load average at the end ${figures.loadAverage.toFixed(1)} on ${availableParallelism()} CPUs
- Data: a fresh SQLite file (WAL) with the demo data; ${figures.rows.toLocaleString('en-US')} item rows as the import screen sends them (${(figures.bodyBytes / 1024 / 1024).toFixed(1)} MB of JSON): SKU, name, barcode (three in four), unit by abbreviation, 1,000 brands and 2 item types new to the business (made by the import: ${figures.brandsMade.toLocaleString('en-US')}), reorder level, VAT
- Method: \`POST /api/imports/items\` through \`app.inject\` (the body parsed, every row checked, the writes in one transaction with their history and counts), one after another: the check (\`check_only\`), the import, then the same rows again (every one skipped)

| Step | Time |
| --- | ---: |
| check of ${figures.rows.toLocaleString('en-US')} rows | ${seconds(figures.checkMs)} |
| import of ${figures.rows.toLocaleString('en-US')} rows | ${seconds(figures.importMs)} |
| the same file again, all skipped | ${seconds(figures.againMs)} |

| Target | Observed | Met |
| --- | --- | --- |
| ${figures.rows.toLocaleString('en-US')} item rows imported in under ${IMPORT_TARGET_MS / 1000} s | ${seconds(figures.importMs)} | ${met ? 'met' : '**not met**'} |
`;
}
