import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { businessesQuery, forgetEndedSession, userQuery, type CurrentUser } from './session';

afterEach(() => vi.unstubAllGlobals());

describe('the session’s queries', () => {
  it('keep the user asked for before anybody watches it, so the first screen does not ask again', async () => {
    const answers: Record<string, unknown> = {
      '/api/auth/user': { id: 7, name: 'Ana' },
      '/api/businesses/get-all-businesses': { data: [{ id: 1, name: 'Sari-Sari' }] },
    };
    const fetch = vi.fn(
      async (path: string) => new Response(JSON.stringify(answers[path]), { headers: { 'Content-Type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('window', new EventTarget());
    vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
    const client = new QueryClient();
    await client.prefetchQuery(userQuery(1));
    await client.prefetchQuery(businessesQuery());
    // Long enough for a garbage collection scheduled "at once" (an overflowing gcTime) to have run.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.getQueryData(userQuery(1).queryKey)).toEqual({ id: 7, name: 'Ana' });
    expect(client.getQueryData(businessesQuery().queryKey)).toEqual([{ id: 1, name: 'Sari-Sari' }]);
    expect(fetch).toHaveBeenCalledTimes(2);
    client.clear();
  });

  it('are forgotten when the server ended the session, the user read before a business was chosen included', () => {
    const client = new QueryClient();
    const ana: CurrentUser = {
      ...{ id: 7, name: 'Ana', email: 'ana@example.com', business_id: null, userable_from: null },
      ...{ role_names: [], permission_names: [], businesses: [] },
    };
    client.setQueryData(userQuery(null).queryKey, ana);
    client.setQueryData(userQuery(2).queryKey, ana);
    client.setQueryData(businessesQuery().queryKey, [{ id: 1, name: 'Sari-Sari' }]);
    client.setQueryData(userQuery(1).queryKey, ana);
    forgetEndedSession(client, 1);
    expect(
      client
        .getQueryCache()
        .getAll()
        .map((query) => query.queryKey),
    ).toEqual([userQuery(1).queryKey]);
    client.clear();
  });
});
