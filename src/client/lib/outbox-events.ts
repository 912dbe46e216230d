import type { OutboxEntry } from './outbox-queue';

/**
 * What the outbox tells the rest of the app, apart from the outbox itself so that listening does
 * not load it: the app shell listens from the start, and the outbox is loaded once a session opens.
 */

const sentListeners = new Set<(entry: OutboxEntry, data: unknown) => void>();
const signInListeners = new Set<() => void>();

/** Called in every tab when a change reached the server: what shows it must refresh. */
export function onChangeSent(listener: (entry: OutboxEntry, data: unknown) => void): () => void {
  sentListeners.add(listener);
  return () => sentListeners.delete(listener);
}

/** Called when the server no longer knows the session: the user must sign in for the rest to go. */
export function onSignInNeeded(listener: () => void): () => void {
  signInListeners.add(listener);
  return () => signInListeners.delete(listener);
}

/** A change reached the server: every listener hears it. */
export function changeSent(entry: OutboxEntry, data: unknown): void {
  for (const listener of sentListeners) listener(entry, data);
}

/** The server no longer knows the session: every listener hears it. */
export function signInNeeded(): void {
  for (const listener of signInListeners) listener();
}
