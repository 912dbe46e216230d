import { api } from './api';
import { sessionKept } from './kept-session';

/**
 * Who is signed in, asked for as the app starts (first-screen.ts calls `askUserEarly` before the
 * rest of the app's code is evaluated), on a start that keeps no session; the session's first
 * user query (session.ts) answers with it instead of asking again.
 */

let earlyUser: Promise<unknown> | null = null;

export function askUserEarly(path: string): void {
  if (path === '/login' || sessionKept()) return;
  earlyUser = api('GET', '/api/auth/user');
  // Told to whoever takes it; nobody else.
  earlyUser.catch(() => undefined);
}

/** The user asked for at the start, once. */
export function takeEarlyUser<T>(): Promise<T> | null {
  const taken = earlyUser as Promise<T> | null;
  earlyUser = null;
  return taken;
}
