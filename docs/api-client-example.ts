// Types made from the server's document: npx openapi-typescript http://localhost:3000/api/docs/json -o bodega-api.d.ts
import createClient from 'openapi-fetch';
import type { paths } from './bodega-api';

type NewBrand = paths['/api/brands']['post']['requestBody']['content']['application/json'];

/** Signs in, reads a page of items, then makes, reads, renames and trashes a brand in the user's first business. */
export async function tryTheApi(baseUrl: string, email: string, password: string) {
  const signIn = createClient<paths>({ baseUrl });
  const login = await signIn.POST('/api/auth/login', {
    params: { header: { 'X-Requested-With': 'XMLHttpRequest' } },
    body: { email, password },
  });
  if (!login.data) throw new Error(`Sign-in refused (${login.response.status}): ${login.error.message}`);
  const cookie = login.response.headers.getSetCookie()[0]?.split(';')[0];
  const businessId = login.data.user.business_id;
  if (cookie === undefined || businessId === null) throw new Error('No session cookie, or the user belongs to no business.');

  // Every later call sends the session cookie; business calls name the business, changes carry X-Requested-With.
  const api = createClient<paths>({ baseUrl, headers: { cookie } });
  const business = { 'Business-ID': businessId, 'X-Requested-With': 'XMLHttpRequest' } as const;

  const items = await api.GET('/api/items', { params: { header: business, query: { per_page: 25, order_by: 'asc' } } });
  if (!items.data) throw new Error(items.error.message);

  // A body given its type is checked for misspelt fields: openapi-fetch lets an unknown field through, and the server ignores it.
  const key = crypto.randomUUID();
  const brand: NewBrand = { name: `Brand ${key.slice(0, 8)}`, description: 'Made by the API example' };
  // An Idempotency-Key makes the create safe to send again: the repeat gets the first answer back and makes nothing.
  const createBrand = () => api.POST('/api/brands', { params: { header: { ...business, 'Idempotency-Key': key } }, body: brand });
  const made = await createBrand();
  const again = await createBrand(); // as after an answer lost on the way
  if (!made.data || !again.data) throw new Error(made.error?.message ?? again.error?.message);
  const path = { id: made.data.data.id };

  const read = await api.GET('/api/brands/{id}', { params: { header: business, path } });
  const etag = read.response.headers.get('ETag');
  if (!read.data || etag === null) throw new Error(read.error?.message ?? 'No ETag.');

  // If-Match: the change applies only to the version read; a stale one is refused with 412.
  const renamed = await api.PATCH('/api/brands/{id}', {
    params: { header: { ...business, 'If-Match': etag }, path },
    body: { name: `${read.data.data.name} (renamed)` },
  });
  if (!renamed.data) throw new Error(renamed.error.message);
  const stale = await api.PATCH('/api/brands/{id}', {
    params: { header: { ...business, 'If-Match': etag }, path },
    body: { name: 'Too late' },
  });

  const trashed = await api.DELETE('/api/brands/{id}', { params: { header: business, path } });
  if (!trashed.data) throw new Error(trashed.error.message);

  return {
    businessId,
    items: { onPage: items.data.data.length, total: items.data.meta.total, totalExact: items.data.meta.total_exact },
    made: made.data.data,
    replayed: again.response.headers.get('Idempotent-Replayed') === 'true' && again.data.data.id === made.data.data.id,
    etag,
    renamed: renamed.data.data,
    stale: { status: stale.response.status, message: stale.error?.message },
    trashedAt: trashed.data.data.deleted_at,
  };
}
