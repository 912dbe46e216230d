import { SIGNED_IN_USER_ELEMENT } from '../../domain/first-screens';
import { activeBusinessId, api, ApiError } from './api';
import { sessionKept } from './kept-session';

/**
 * Who is signed in, asked for as the app starts (first-screen.ts calls `askUserEarly` before the
 * rest of the app's code is evaluated), on a start that keeps no session; the session's first
 * user query (session.ts) answers with it instead of asking again. A page the server sent to a
 * signed-in navigation carries the answer already (server/client-page.ts): it is taken from there
 * when it is for the business this device works in, and nothing is asked. A page sent to a
 * navigation with no session says so (`null`): the answer is then the API's own refusal, without
 * asking to be refused (a refusal is an error in the browser's console, on the sign-in's page too).
 */

let earlyUser: Promise<unknown> | null = null;

/** The page says nobody is signed in. */
const SIGNED_OUT = null;

/** The user the page carries, SIGNED_OUT, or undefined where it says nothing of it; once: the element goes, so nothing reads it twice. */
function userInPage(): { business_id?: unknown } | typeof SIGNED_OUT | undefined {
  const element = document.getElementById(SIGNED_IN_USER_ELEMENT);
  if (!element) return undefined;
  element.remove();
  try {
    const user = JSON.parse(element.textContent ?? '') as unknown;
    return user === SIGNED_OUT || typeof user === 'object' ? (user as { business_id?: unknown } | null) : undefined;
  } catch {
    return undefined;
  }
}

export function askUserEarly(path: string): void {
  const inPage = userInPage();
  if (sessionKept()) return;
  // As GET /api/auth/user answers a request with no session (server/errors.ts, `unauthenticated`).
  if (inPage === SIGNED_OUT) earlyUser = Promise.reject(new ApiError(401, 'Unauthenticated.'));
  else if (path === '/login') return;
  else {
    const business = activeBusinessId();
    if (inPage && (business === null || inPage.business_id === business)) earlyUser = Promise.resolve(inPage);
    else earlyUser = api('GET', '/api/auth/user');
  }
  // Told to whoever takes it; nobody else.
  earlyUser.catch(() => undefined);
}

/** The user asked for at the start, once. */
export function takeEarlyUser<T>(): Promise<T> | null {
  const taken = earlyUser as Promise<T> | null;
  earlyUser = null;
  return taken;
}
