import { ApiError } from './api';
import type { SyncState } from './offline-store';
import { Abandoned } from './working-set-download';
import type { Failure, FromWorker, ToWorker } from './working-set-worker';

/** The working set's first downloads, each run in the download worker (working-set-worker.ts). */
export interface DownloadWorker {
  /** Downloads what `start` has pending into the database named; `kept` hears of each page stored. Rejects as an inline download would. */
  download(database: string, start: SyncState, signal: AbortSignal, kept: (state: SyncState, resource: string) => void): Promise<SyncState>;
  /** The worker could not run here (its script refused or broken): downloads run inline from then on. */
  readonly broken: boolean;
  /** Ends the worker; a download under way rejects as abandoned. */
  terminate(): void;
}

/** A failure told by the worker, as the error the engine's pass tells apart. */
function errorOf(failure: Failure): Error {
  if (failure.kind === 'abandoned') return new Abandoned();
  if (failure.kind === 'api') return new ApiError(failure.status, failure.message);
  return Object.assign(new Error(failure.message), { name: failure.name });
}

/**
 * A worker for the engine's downloads, started at the first; null where the browser has no module
 * workers (the download then runs inline). One download at a time, as the engine runs one pass.
 */
export function downloadWorker(): DownloadWorker | null {
  if (typeof Worker !== 'function') return null;
  let worker: Worker | null = null;
  let broken = false;
  let abandon: (() => void) | null = null;
  return {
    get broken() {
      return broken;
    },
    download(database, start, signal, kept) {
      worker ??= new Worker(new URL('./working-set-worker.ts', import.meta.url), { type: 'module', name: 'working-set-download' });
      const running = worker;
      return new Promise<SyncState>((resolve, reject) => {
        const stop = () => running.postMessage({ kind: 'stop' } satisfies ToWorker);
        const end = () => {
          abandon = null;
          running.removeEventListener('message', heard);
          running.removeEventListener('error', broke);
          signal.removeEventListener('abort', stop);
        };
        const heard = ({ data: message }: MessageEvent<FromWorker>) => {
          if (message.kind === 'kept') return kept(message.state, message.resource);
          end();
          if (message.kind === 'done') resolve(message.state);
          else reject(errorOf(message.failure));
        };
        // The worker's script could not load or threw: this download fails as any other would, and the next runs inline.
        const broke = (event: ErrorEvent) => {
          end();
          broken = true;
          running.terminate();
          worker = null;
          reject(new Error(`The working set's download worker failed: ${event.message}`));
        };
        abandon = () => {
          end();
          reject(new Abandoned());
        };
        running.addEventListener('message', heard);
        running.addEventListener('error', broke);
        signal.addEventListener('abort', stop);
        running.postMessage({ kind: 'download', database, state: start } satisfies ToWorker);
      });
    },
    terminate() {
      abandon?.();
      worker?.terminate();
      worker = null;
    },
  };
}
