import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { databaseKind, type DatabaseConfig } from '../db/dialect';

/**
 * A server on a SQLite file says so in `<database>.server.json` (its pid and host), written when
 * it opens the database and removed when it closes, so that `npm run restore` can refuse to
 * replace the file under it. A server that died leaves the file behind; its pid is then no
 * longer alive, which is how a stale mark is told from a live one.
 */

export interface ServerMark {
  pid: number;
  host: string;
  since: string;
  /** Tells this server's mark from another's written over it (several apps in one test process). */
  token: string;
}

export function serverMarkPath(databasePath: string): string {
  return `${databasePath}.server.json`;
}

/** Marks a SQLite file as in use by this process; answers what removes the mark (a no-op otherwise). */
export function markServerOnDatabase(database: DatabaseConfig): () => void {
  if (databaseKind(database.url) !== 'sqlite' || /^file:(:memory:)?$/.test(database.url)) return () => {};
  const path = serverMarkPath(database.url.slice('file:'.length));
  const mark: ServerMark = { pid: process.pid, host: hostname(), since: new Date().toISOString(), token: randomBytes(8).toString('hex') };
  writeFileSync(path, `${JSON.stringify(mark, null, 2)}\n`);
  return () => {
    if (readMark(path)?.token === mark.token) rmSync(path, { force: true });
  };
}

function readMark(path: string): ServerMark | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ServerMark;
  } catch {
    return undefined;
  }
}

/**
 * The server using the SQLite file, if one may be: a live process of this host, or any process
 * of another host (whose processes cannot be seen from here).
 */
export function serverOnDatabase(databasePath: string): ServerMark | undefined {
  const mark = readMark(serverMarkPath(databasePath));
  if (!mark) return undefined;
  if (mark.host !== hostname()) return mark;
  try {
    process.kill(mark.pid, 0);
    return mark;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? mark : undefined;
  }
}
