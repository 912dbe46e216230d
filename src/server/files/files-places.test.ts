import { beforeAll, describe, expect, it } from 'vitest';
import { startTwoBranches, type TwoBranches } from '../../../tests/support/places-fixture';
import { png } from '../../../tests/support/png';
import { sendFile } from '../../../tests/support/upload';
import { databaseKinds, userWithPermissions, type Session } from '../../../tests/support/test-app';
import { startedOnce } from '../../../tests/support/started';

/**
 * A record's files follow its place, on each database: at a place the user does not view they
 * are not there (404, as another business's), where the user only views they are read but not
 * changed (403), and where the user operates they are attached, trashed, restored and deleted.
 */
describe.each(databaseKinds)('attachments by place on %s', (kind) => {
  const world = startedOnce(() => startTwoBranches(kind), false);
  /** A file the admin attached to each quotation. */
  const files: TwoBranches<number> = { makati: 0, quezonCity: 0 };
  const photo = png(24, 16);

  const upload = (session: Session, url: string) => sendFile(session, url, 'scan.png', photo);
  const filesUrl = (id: number, resource = 'quotations') => `/api/${resource}/${id}/files`;
  /** A download's status (its bytes read raw). */
  const download = async (session: Session, url: string) =>
    (await world.test.app.inject({ method: 'GET', url, headers: { cookie: session.cookie, 'business-id': String(session.businessId) } }))
      .statusCode;

  /** Someone who may view and update quotations and branches, at `places`. */
  const user = async (places: Parameters<typeof userWithPermissions>[3]) => {
    const permissions = ['view-quotations', 'update-quotations', 'view-branches', 'update-branches'];
    return (await userWithPermissions(world.test, world.business, permissions, places)).session;
  };

  beforeAll(async () => {
    for (const key of ['makati', 'quezonCity'] as const) {
      const attached = await upload(world.admin, filesUrl(world.quotations[key].id));
      expect(attached.status, JSON.stringify(attached.body)).toBe(201);
      files[key] = attached.body.data.id;
    }
  });

  it('answers 404 for the files of a record at a place the user does not view, whatever is asked', async () => {
    const makati = await user({ all: null, grants: [{ type: 'branch', id: world.branches.makati, level: 'operate' }] });
    const url = filesUrl(world.quotations.quezonCity.id);
    const file = `${url}/${files.quezonCity}`;
    expect((await makati.send('GET', url)).status).toBe(404);
    expect(await download(makati, file)).toBe(404);
    expect((await upload(makati, url)).status).toBe(404);
    expect((await makati.send('DELETE', file)).status).toBe(404);
    expect((await makati.send('PATCH', `${file}/restore`)).status).toBe(404);
    expect((await makati.send('DELETE', `${file}/force-delete`)).status).toBe(404);
    // A place is itself such a record.
    expect((await makati.send('GET', filesUrl(world.branches.quezonCity, 'branches'))).status).toBe(404);
    expect((await makati.send('GET', filesUrl(world.branches.makati, 'branches'))).status).toBe(200);

    const kept = await world.admin.send('GET', `${url}?with_trashed=1`);
    expect(kept.body.data.map((row: { id: number; deleted_at: string | null }) => [row.id, row.deleted_at])).toEqual([
      [files.quezonCity, null],
    ]);
  });

  it('lets the user change the files of a record where they operate', async () => {
    const makati = await user({ all: null, grants: [{ type: 'branch', id: world.branches.makati, level: 'operate' }] });
    const url = filesUrl(world.quotations.makati.id);
    const listed = await makati.send('GET', url);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((row: { id: number }) => row.id)).toEqual([files.makati]);
    expect(await download(makati, `${url}/${files.makati}`)).toBe(200);
    const attached = await upload(makati, url);
    expect(attached.status, JSON.stringify(attached.body)).toBe(201);
    const file = `${url}/${attached.body.data.id}`;
    expect((await makati.send('DELETE', file)).status).toBe(200);
    expect((await makati.send('PATCH', `${file}/restore`)).status).toBe(200);
    expect((await makati.send('DELETE', file)).status).toBe(200);
    expect((await makati.send('DELETE', `${file}/force-delete`)).status).toBe(204);
  });

  it('lets someone who only views a place read its files, and refuses them every change (403)', async () => {
    const viewer = await user({ all: 'view', grants: [{ type: 'branch', id: world.branches.makati, level: 'operate' }] });
    const url = filesUrl(world.quotations.quezonCity.id);
    const file = `${url}/${files.quezonCity}`;
    expect((await viewer.send('GET', url)).body.data.map((row: { id: number }) => row.id)).toEqual([files.quezonCity]);
    expect(await download(viewer, file)).toBe(200);
    const refused = await upload(viewer, url);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('You do not operate at Quezon City');
    expect((await viewer.send('DELETE', file)).status).toBe(403);
    expect((await viewer.send('PATCH', `${file}/restore`)).status).toBe(403);
    expect((await viewer.send('DELETE', `${file}/force-delete`)).status).toBe(403);
    expect((await viewer.send('POST', `${filesUrl(world.branches.quezonCity, 'branches')}`)).status).toBe(403);
    // Where they also operate, they change them.
    expect((await upload(viewer, filesUrl(world.quotations.makati.id))).status).toBe(201);

    const kept = await world.admin.send('GET', `${url}?with_trashed=1`);
    expect(kept.body.data.map((row: { id: number; deleted_at: string | null }) => [row.id, row.deleted_at])).toEqual([
      [files.quezonCity, null],
    ]);
    expect(world.test.errorLines).toEqual([]);
  });
});
