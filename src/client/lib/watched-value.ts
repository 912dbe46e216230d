/**
 * A value that screens read through `useSyncExternalStore`: `get` gives the same object until
 * `set` replaces it, and every watcher `subscribe` was given is told of each change.
 */
export interface WatchedValue<T> {
  get: () => T;
  set: (next: T) => void;
  /** Adds a watcher; the answer removes it. */
  subscribe: (watcher: () => void) => () => void;
}

export function watchedValue<T>(initial: T): WatchedValue<T> {
  let value = initial;
  const watchers = new Set<() => void>();
  return {
    get: () => value,
    set: (next) => {
      value = next;
      for (const watcher of watchers) watcher();
    },
    subscribe: (watcher) => {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
  };
}
