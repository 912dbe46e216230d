/**
 * The one data client: every call carries `X-Requested-With: XMLHttpRequest` and, once a
 * business is selected, `Business-ID`; bodies are JSON; failures become `ApiError`s carrying the
 * server's `{message, errors}` (status 0 when the network itself failed).
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

const BUSINESS_KEY = 'business_id';
const listeners = new Set<() => void>();

export function activeBusinessId(): number | null {
  const stored = localStorage.getItem(BUSINESS_KEY);
  return stored && /^\d+$/.test(stored) ? Number(stored) : null;
}

export function setActiveBusinessId(id: number | null): void {
  if (id === null) localStorage.removeItem(BUSINESS_KEY);
  else localStorage.setItem(BUSINESS_KEY, String(id));
  for (const listener of listeners) listener();
}

export function subscribeToBusiness(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

interface RequestOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The business the call is made in, when not the active one (a change queued earlier). */
  businessId?: number | null;
}

/** The request with the app's headers; a network failure becomes an `ApiError` with status 0. */
async function send(
  method: string,
  path: string,
  { query, body, headers = {}, signal, businessId = activeBusinessId() }: RequestOptions,
  accept: string,
): Promise<Response> {
  try {
    return await fetch(`${path}${queryString(query)}`, {
      method,
      signal,
      credentials: 'same-origin',
      headers: {
        Accept: accept,
        'X-Requested-With': 'XMLHttpRequest',
        ...(businessId === null ? {} : { 'Business-ID': String(businessId) }),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'The server cannot be reached. Check the connection and try again.');
  }
}

async function failure(response: Response): Promise<ApiError> {
  const payload = (await response.json().catch(() => undefined)) as { message?: string; errors?: Record<string, string[]> } | undefined;
  return new ApiError(
    response.status,
    payload?.message ?? `The server answered ${response.status} ${response.statusText}.`,
    payload?.errors ?? {},
  );
}

export async function api<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, options, 'application/json');
  if (!response.ok) throw await failure(response);
  if (response.status === 204) return undefined as T;
  return (await response.json().catch(() => undefined)) as T;
}

/**
 * A POST whose upload reports its progress (the share sent, 0 to 1) — XMLHttpRequest, as fetch
 * cannot — with the app's headers and `idempotencyKey`; resolves the answer's `data` when the server
 * answers `expected`, else rejects with an `ApiError` carrying its message and field errors.
 */
export function postWithProgress<T>(
  path: string,
  body: XMLHttpRequestBodyInit,
  {
    expected,
    contentType,
    idempotencyKey,
    onProgress,
  }: { expected: number; contentType?: string; idempotencyKey: string; onProgress: (sent: number) => void },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.setRequestHeader('Accept', 'application/json');
    request.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    request.setRequestHeader('Idempotency-Key', idempotencyKey);
    if (contentType) request.setRequestHeader('Content-Type', contentType);
    const businessId = activeBusinessId();
    if (businessId !== null) request.setRequestHeader('Business-ID', String(businessId));
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.upload.onload = () => onProgress(1);
    request.onload = () => {
      const payload = request.response as { data?: T; message?: string; errors?: Record<string, string[]> } | null;
      if (request.status === expected && payload?.data) resolve(payload.data);
      else reject(new ApiError(request.status, payload?.message ?? `The server answered ${request.status}.`, payload?.errors ?? {}));
    };
    request.onerror = () => reject(new ApiError(0, 'The server cannot be reached. Check the connection and try again.'));
    request.send(body);
  });
}

/** A file the server sends (an export, an attachment), with the name it suggests for it. */
export async function apiFile(path: string, options: RequestOptions = {}): Promise<{ blob: Blob; filename: string | null }> {
  const response = await send('GET', path, options, '*/*');
  if (!response.ok) throw await failure(response);
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename="([^"]+)"/i.exec(disposition)?.[1];
  return { blob: await response.blob(), filename: encoded ? decodeURIComponent(encoded) : (plain ?? null) };
}

/** Hands a file to the browser's downloads, as a link with `download` would. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** What a person should read when a call failed. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 403)
      return error.message === 'This action is unauthorized.' ? 'You do not have permission to do this.' : error.message;
    return error.message;
  }
  return 'Something went wrong. Please try again.';
}
