import { SIGNED_IN_USER_ELEMENT } from '../../domain/first-screens';
import { activeBusinessId, api } from './api';
import { sessionKept } from './kept-session';

/**
 * Who is signed in, asked for as the app starts (first-screen.ts calls `askUserEarly` before the
 * rest of the app's code is evaluated), on a start that keeps no session; the session's first
 * user query (session.ts) answers with it instead of asking again. A page the server sent to a
 * signed-in navigation carries the answer already (server/client-page.ts): it is taken from there
 * when it is for the business this device works in, and nothing is asked.
 */

let earlyUser: Promise<unknown> | null = null;

/** The user the page carries, once: the element goes, so nothing reads it twice. */
function userInPage(): { business_id?: unknown } | null {
  const element = document.getElementById(SIGNED_IN_USER_ELEMENT);
  if (!element) return null;
  element.remove();
  try {
    const user = JSON.parse(element.textContent ?? '') as unknown;
    return typeof user === 'object' && user !== null ? user : null;
  } catch {
    return null;
  }
}

export function askUserEarly(path: string): void {
  const inPage = userInPage();
  if (path === '/login' || sessionKept()) return;
  const business = activeBusinessId();
  if (inPage && (business === null || inPage.business_id === business)) earlyUser = Promise.resolve(inPage);
  else earlyUser = api('GET', '/api/auth/user');
  // Told to whoever takes it; nobody else.
  earlyUser.catch(() => undefined);
}

/** The user asked for at the start, once. */
export function takeEarlyUser<T>(): Promise<T> | null {
  const taken = earlyUser as Promise<T> | null;
  earlyUser = null;
  return taken;
}
