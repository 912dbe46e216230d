import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { QueryResult } from 'kysely';

/**
 * Reads of a SQLite file on worker threads, each with a read-only connection of its own (WAL lets
 * them read the last commit while the writer writes). better-sqlite3 runs a statement to its end
 * on the thread that asks, so a search of a million names on the event loop's reading connection
 * held up every request behind it; a statement sent here leaves the event loop free meanwhile.
 * What comes back crosses threads flat (one array of values and the column names: copying an
 * object per row took twenty times as long), and is made rows again here.
 */

/** The worker: its own connection, each statement prepared once, every answer sent back flat. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= 200) statements.clear();
      statement = db.prepare(sql).raw(true);
      statements.set(sql, statement);
    }
    const rows = statement.all(parameters);
    const columns = statement.columns().map((column) => column.name);
    const values = new Array(rows.length * columns.length);
    let at = 0;
    for (const row of rows) for (const value of row) values[at++] = value;
    parentPort.postMessage({ id, columns, values });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});`;

interface Answer {
  id: number;
  columns?: string[];
  values?: unknown[];
  error?: { message: string; code?: string };
}

interface Waiting {
  resolve(result: QueryResult<unknown>): void;
  reject(error: Error): void;
}

interface Reader {
  worker: Worker;
  waiting: Map<number, Waiting>;
}

/** Rows again from the flat answer. */
function rowsOf(columns: string[], values: unknown[]): Record<string, unknown>[] {
  const rows = new Array<Record<string, unknown>>(values.length / Math.max(columns.length, 1));
  for (let row = 0, at = 0; row < rows.length; row++) {
    const record: Record<string, unknown> = {};
    for (const column of columns) record[column] = values[at++];
    rows[row] = record;
  }
  return rows;
}

/** A statement the reader could not run, with SQLite's code (SQLITE_BUSY …) as better-sqlite3 gives it. */
class SqliteReadError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export class ReadersAside {
  readonly #path: string;
  readonly #readers: Reader[] = [];
  #next = 1;

  /** `count`: two, or one a core up to four. */
  constructor(path: string, count = Math.min(4, Math.max(2, availableParallelism()))) {
    this.#path = path;
    for (let at = 0; at < count; at++) this.#readers.push(this.#started());
  }

  #started(): Reader {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path: this.#path, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
    });
    // A reader never keeps the process alive; the driver ends them when the database closes.
    worker.unref();
    const reader: Reader = { worker, waiting: new Map() };
    worker.on('message', (answer: Answer) => {
      const waiting = reader.waiting.get(answer.id);
      reader.waiting.delete(answer.id);
      if (!waiting) return;
      if (answer.error) waiting.reject(new SqliteReadError(answer.error.message, answer.error.code));
      else waiting.resolve({ rows: rowsOf(answer.columns ?? [], answer.values ?? []) });
    });
    // A reader that failed (out of memory, say) fails what it was asked, and a new one takes its place.
    const replace = (error: Error) => {
      const at = this.#readers.indexOf(reader);
      if (at < 0) return;
      for (const waiting of reader.waiting.values()) waiting.reject(error);
      this.#readers[at] = this.#started();
    };
    worker.on('error', replace);
    worker.on('exit', (code) => replace(new Error(`A SQLite reader thread ended (code ${code}).`)));
    return reader;
  }

  /** Runs a statement that only reads on the reader with the least to do. */
  run(sql: string, parameters: readonly unknown[]): Promise<QueryResult<unknown>> {
    const reader = this.#readers.reduce((least, other) => (other.waiting.size < least.waiting.size ? other : least));
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      reader.waiting.set(id, { resolve, reject });
      reader.worker.postMessage({ id, sql, parameters });
    });
  }

  async close(): Promise<void> {
    const readers = this.#readers.splice(0);
    await Promise.all(readers.map((reader) => reader.worker.terminate()));
  }
}
