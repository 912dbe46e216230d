/** Where the session's queries are kept in localStorage (app.tsx persists them there). */
export const KEPT_SESSION_KEY = 'bodega-session';

/** Whether this device keeps a session from before: the app opens from it without waiting for the server. */
export const sessionKept = () => localStorage.getItem(KEPT_SESSION_KEY) !== null;
