import type * as SonnerModule from 'sonner';
import type { ExternalToast } from 'sonner';
import { loadAhead } from './load-ahead';
import { watchedValue } from './watched-value';

/**
 * Toasts, as sonner shows them, without sonner in the first screen's code: the first toast loads
 * sonner and mounts its toaster (`ToasterHost`), and is shown once the toaster listens; later
 * ones go straight through. Call `toast.success('Saved')` and friends as sonner's own `toast`.
 */

type Sonner = typeof SonnerModule;
type Message = Parameters<Sonner['toast']>[0];
type ToastId = string | number;

const wanted = watchedValue(false);
let listening: () => void = () => {};
const toasterListens = new Promise<void>((resolve) => (listening = resolve));

/** Whether a toast was asked for: the toaster is mounted from then on. For `useSyncExternalStore`. */
export const toasterWanted = wanted.get;
export const watchToaster = wanted.subscribe;

/** Called by the toaster once it listens: the toasts asked for until then are shown. */
export function toasterListening(): void {
  listening();
}

/** Sonner's module, loaded once. */
export const loadSonner = loadAhead((): Promise<Sonner> => import('sonner'));

function show(call: (toast: Sonner['toast']) => void): void {
  if (!wanted.get()) wanted.set(true);
  void Promise.all([loadSonner(), toasterListens]).then(([{ toast: sonnerToast }]) => call(sonnerToast));
}

let lastId = 0;
/** An id chosen here, so that a toast shown later can be dismissed by what it answered now. */
const idOf = (options?: ExternalToast): ToastId => options?.id ?? `toast-${++lastId}`;

export const toast = Object.assign((message: Message, options?: ExternalToast) => show((sonnerToast) => sonnerToast(message, options)), {
  success: (message: Message, options?: ExternalToast) => show((sonnerToast) => sonnerToast.success(message, options)),
  error: (message: Message, options?: ExternalToast) => show((sonnerToast) => sonnerToast.error(message, options)),
  info: (message: Message, options?: ExternalToast) => show((sonnerToast) => sonnerToast.info(message, options)),
  loading: (message: Message, options?: ExternalToast): ToastId => {
    const id = idOf(options);
    show((sonnerToast) => sonnerToast.loading(message, { ...options, id }));
    return id;
  },
  dismiss: (id?: ToastId) => show((sonnerToast) => sonnerToast.dismiss(id)),
});
