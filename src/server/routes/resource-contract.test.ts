import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_ACTIONS, permissionName } from '../../domain/permissions';
import { updatableFields, type ResourceDefinition } from '../../domain/resource';
import { DOCUMENT_RESOURCES } from '../../domain/resources/document-memoranda';
import { getResource, registry } from '../../domain/resources/registry';
import { databaseKinds, startDemo, userWithPermissions, type Session, type TestApp } from '../../../tests/support/test-app';
import { sampleBody, undoBeforeDelete, unique } from '../../../tests/support/samples';

/**
 * The CRUD contract every resource's API keeps, run once against every resource of the registry:
 * list parameters, trash filters, strict and loose search, the sort whitelist, create, view,
 * update, trash, restore, permanent delete, 422, 404 across businesses and 403 per permission.
 */

function readBack(definition: ResourceDefinition, body: Record<string, unknown>, record: Record<string, unknown>) {
  for (const [name, field] of Object.entries(definition.fields)) {
    if (field.computed) continue;
    if (field.writeOnly) {
      expect(record, `${name} is never returned`).not.toHaveProperty(name);
      continue;
    }
    expect(record[name], `${definition.name}.${name}`).toEqual(body[name] ?? (field.kind === 'select' ? 'none' : null));
  }
}

function firstTextSearch(definition: ResourceDefinition): string | undefined {
  return definition.search.find(
    (name) => ['text', 'email'].includes(definition.fields[name]?.kind ?? '') && !definition.fields[name].writeOnly,
  );
}

/** A record without the cost figures a user who sees costs is given (`cost`, `margin` on it and its lines). */
function withoutCosts(record: Record<string, unknown>): Record<string, unknown> {
  const rest = Object.fromEntries(
    Object.entries(record).filter(([key]) => !['cost', 'margin', 'cost_of_goods', 'margin_percent'].includes(key)),
  );
  if (!Array.isArray(rest.lines)) return rest;
  return { ...rest, lines: (rest.lines as Record<string, unknown>[]).map((line) => withoutCosts(line)) };
}

describe.each(databaseKinds)('resource contract on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let otherBusiness: number;

  beforeAll(async () => {
    ({
      test,
      admin,
      businesses: [, otherBusiness],
    } = await startDemo(kind));
  });
  afterAll(() => test.close());

  describe.each(registry.map((definition) => [definition.name, definition] as const))('%s', (name, definition) => {
    const base = `/api/${name}`;

    it('lists with the contract meta and links, and refuses bad list parameters with 422', async () => {
      const list = await admin.send('GET', `${base}?per_page=25`);
      expect(list.status).toBe(200);
      expect(list.body.meta).toMatchObject({ per_page: 25, current_page: 1 });
      expect(list.body.meta.total).toBeGreaterThanOrEqual(list.body.data.length);
      expect(list.body.meta.last_page).toBe(Math.max(1, Math.ceil(list.body.meta.total / 25)));
      expect(list.body.links).toMatchObject({ prev: null });
      expect(list.body.links.first).toContain('page=1');

      for (const query of [
        'per_page=20',
        'order_by=up',
        'order_by_field_name=password_hash',
        'order_by_field_name=deleted_at',
        'page=0',
        'with_trashed=maybe',
      ]) {
        const bad = await admin.send('GET', `${base}?${query}`);
        expect(bad.status, query).toBe(422);
        expect(Object.keys(bad.body.errors)).toHaveLength(1);
      }
    });

    it('sorts by every whitelisted field in both directions', async () => {
      for (const field of definition.sort) {
        for (const direction of ['asc', 'desc']) {
          const answer = await admin.send('GET', `${base}?order_by_field_name=${field}&order_by=${direction}&per_page=100`);
          expect(answer.status, `${field} ${direction}`).toBe(200);
        }
      }
      const asc = await admin.send('GET', `${base}?order_by=asc&per_page=100`);
      const ids = asc.body.data.map((row: { id: number }) => row.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('answers a picker with `limit` rows', async () => {
      const answer = await admin.send('GET', `${base}?limit=1`);
      expect(answer.status).toBe(200);
      expect(answer.body.data.length).toBeLessThanOrEqual(1);
    });

    if (definition.readOnly) {
      it('is read-only: no create, update or delete routes', async () => {
        const first = (await admin.send('GET', base)).body.data[0];
        expect((await admin.send('POST', base, {})).status).toBe(404);
        expect((await admin.send('PATCH', `${base}/${first.id}`, {})).status).toBe(404);
        expect((await admin.send('DELETE', `${base}/${first.id}`)).status).toBe(404);
        expect((await admin.send('GET', `${base}/${first.id}`)).status).toBe(200);
      });
      return;
    }

    it('creates, views, searches, updates, trashes, restores and deletes permanently', async () => {
      const body = await sampleBody(admin, definition);
      const created = await admin.send('POST', base, body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const record = created.body.data;
      readBack(definition, body, record);
      expect(record.version).toBe(1);
      expect(record.deleted_at).toBeNull();

      const viewed = await admin.send('GET', `${base}/${record.id}`);
      expect(viewed.status).toBe(200);
      // As created, but for what its goods cost: costed after the answer to its creation (docs/costing.md).
      expect(withoutCosts(viewed.body.data)).toEqual(withoutCosts(record));
      expect(viewed.headers.etag).toBe('"1"');

      // Search: id, strict equality, and case-insensitive contains on the first text field.
      const byId = await admin.send('GET', `${base}?id=${record.id}`);
      expect(byId.body.data.map((row: { id: number }) => row.id)).toEqual([record.id]);
      expect(byId.body.meta.total).toBe(1);
      const textField = firstTextSearch(definition);
      if (textField) {
        const value = String(record[textField]);
        const middle = value.slice(2, -2).toUpperCase();
        const strictHit = await admin.send('GET', `${base}?${textField}=${encodeURIComponent(value)}&is_strict=1`);
        expect(strictHit.body.data.map((row: { id: number }) => row.id)).toContain(record.id);
        const strictMiss = await admin.send('GET', `${base}?${textField}=${encodeURIComponent(middle)}&is_strict=1`);
        expect(strictMiss.body.data.map((row: { id: number }) => row.id)).not.toContain(record.id);
        const loose = await admin.send('GET', `${base}?${textField}=${encodeURIComponent(middle)}&is_strict=0`);
        expect(loose.body.data.map((row: { id: number }) => row.id)).toContain(record.id);
        expect(loose.body.meta.total).toBe(loose.body.data.length);
      }

      if (definition.editable) {
        const field = updatableFields(definition).find(([, f]) => f.kind === 'text' || f.kind === 'money');
        if (field) {
          const [fieldName, fieldDefinition] = field;
          const next = fieldDefinition.kind === 'money' ? 99.95 : `Renamed ${unique()}`;
          const updated = await admin.send('PATCH', `${base}/${record.id}`, { [fieldName]: next }, { 'if-match': '"1"' });
          expect(updated.status, JSON.stringify(updated.body)).toBe(200);
          expect(updated.body.data[fieldName]).toEqual(next);
          expect(updated.body.data.version).toBe(2);
          const stale = await admin.send('PATCH', `${base}/${record.id}`, { [fieldName]: next }, { 'if-match': '1' });
          expect(stale.status).toBe(412);
          if (fieldDefinition.required) {
            const blank = await admin.send('PATCH', `${base}/${record.id}`, { [fieldName]: '' });
            expect(blank.status).toBe(422);
            expect(blank.body.errors[fieldName]).toHaveLength(1);
          }
        }
      } else {
        expect((await admin.send('PATCH', `${base}/${record.id}`, {})).status).toBe(404);
      }

      const before = (await admin.send('GET', base)).body.meta.total;
      await undoBeforeDelete(admin, definition, record.id);
      // A trash, a restore and a permanent delete based on another version are refused, as an edit is.
      const version: number = (await admin.send('GET', `${base}/${record.id}`)).body.data.version;
      expect((await admin.send('DELETE', `${base}/${record.id}`, undefined, { 'if-match': `"${version - 1}"` })).status).toBe(412);
      const trashed = await admin.send('DELETE', `${base}/${record.id}`, undefined, { 'if-match': `"${version}"` });
      expect(trashed.status).toBe(200);
      expect(trashed.body.data.deleted_at).not.toBeNull();
      expect((await admin.send('DELETE', `${base}/${record.id}`)).status).toBe(409);

      const active = await admin.send('GET', `${base}?id=${record.id}`);
      expect(active.body.data).toHaveLength(0);
      expect((await admin.send('GET', base)).body.meta.total).toBe(before - 1);
      const onlyTrashed = await admin.send('GET', `${base}?only_trashed=1`);
      expect(onlyTrashed.body.data.map((row: { id: number }) => row.id)).toContain(record.id);
      expect(onlyTrashed.body.data.every((row: { deleted_at: string | null }) => row.deleted_at !== null)).toBe(true);
      const withTrashed = await admin.send('GET', `${base}?with_trashed=1&per_page=100`);
      expect(withTrashed.body.meta.total).toBe(before - 1 + onlyTrashed.body.meta.total);

      expect((await admin.send('PATCH', `${base}/${record.id}/restore`, undefined, { 'if-match': `"${version}"` })).status).toBe(412);
      const restored = await admin.send('PATCH', `${base}/${record.id}/restore`, undefined, { 'if-match': `"${version + 1}"` });
      expect(restored.status).toBe(200);
      expect(restored.body.data.deleted_at).toBeNull();
      expect((await admin.send('GET', base)).body.meta.total).toBe(before);
      expect((await admin.send('PATCH', `${base}/${record.id}/restore`)).status).toBe(409);

      expect((await admin.send('DELETE', `${base}/${record.id}/force-delete`)).status).toBe(409);
      await admin.send('DELETE', `${base}/${record.id}`);
      if ((definition.document?.effects?.stock ?? []).length > 0) {
        // The stock ledger keeps the movements of a document, and so the document.
        const kept = await admin.send('DELETE', `${base}/${record.id}/force-delete`);
        expect(kept.status).toBe(409);
        expect(kept.body.message).toContain('stock movements');
        return;
      }
      const last: number = (await admin.send('GET', `${base}/${record.id}`)).body.data.version;
      expect((await admin.send('DELETE', `${base}/${record.id}/force-delete`, undefined, { 'if-match': `"${last - 1}"` })).status).toBe(
        412,
      );
      const removed = await admin.send('DELETE', `${base}/${record.id}/force-delete`, undefined, { 'if-match': `"${last}"` });
      expect(removed.status).toBe(204);
      expect((await admin.send('GET', `${base}/${record.id}`)).status).toBe(404);
      expect((await admin.send('GET', `${base}?with_trashed=1`)).body.meta.total).toBe(withTrashed.body.meta.total - 1);
    });

    it('refuses an invalid body with 422 field messages and writes nothing', async () => {
      const before = (await admin.send('GET', `${base}?with_trashed=1`)).body.meta.total;
      const required = Object.entries(definition.fields).filter(([, field]) => field.required);
      const empty = await admin.send('POST', base, {});
      if (required.length > 0) {
        expect(empty.status).toBe(422);
        for (const [fieldName, field] of required) {
          expect(empty.body.errors[fieldName]).toEqual([`The ${field.label.toLowerCase()} field is required.`]);
        }
      }
      const reference = Object.entries(definition.fields).find(([, field]) => field.kind === 'reference' && !field.computed);
      if (reference) {
        const body = { ...(await sampleBody(admin, definition)), [reference[0]]: 999_999 };
        const answer = await admin.send('POST', base, body);
        expect(answer.status).toBe(422);
        expect(answer.body.errors[reference[0]][0]).toMatch(/^The selected .+ is invalid\.$/);
      }
      const notAnObject = await admin.send('POST', base, [1, 2, 3]);
      expect(notAnObject.status).toBe(422);
      expect((await admin.send('GET', `${base}?with_trashed=1`)).body.meta.total).toBe(before);
    });

    it('keeps each business to its own records (404 across businesses)', async () => {
      const created = await admin.send('POST', base, await sampleBody(admin, definition));
      expect(created.status).toBe(201);
      const id = created.body.data.id;
      // Another business's member (for businesses: a user outside the new one) cannot see or touch it.
      const outsider = definition.name === 'businesses' ? await test.signIn('viewer@example.com') : admin.inBusiness(otherBusiness);
      expect((await outsider.send('GET', `${base}/${id}`)).status).toBe(404);
      if (definition.name === 'businesses') return;
      expect((await outsider.send('GET', `${base}?id=${id}`)).body.data).toHaveLength(0);
      if (definition.editable) expect((await outsider.send('PATCH', `${base}/${id}`, {})).status).toBe(404);
      expect((await outsider.send('DELETE', `${base}/${id}`)).status).toBe(404);
      expect((await outsider.send('PATCH', `${base}/${id}/restore`)).status).toBe(404);
      expect((await outsider.send('DELETE', `${base}/${id}/force-delete`)).status).toBe(404);
    });

    it('answers 403 for each missing permission', async () => {
      const businessId = admin.businessId as number;
      const all = PERMISSION_ACTIONS.map((action) => permissionName(action, definition.permission));
      const limited = await userWithPermissions(test, businessId, []);
      const victim = (await admin.send('POST', base, await sampleBody(admin, definition))).body.data;
      await admin.send('DELETE', `${base}/${victim.id}`);
      const calls: Record<(typeof PERMISSION_ACTIONS)[number], () => Promise<{ status: number }>> = {
        view: () => limited.session.send('GET', base),
        create: () => limited.session.send('POST', base, {}),
        update: () => limited.session.send('PATCH', `${base}/${victim.id}`, {}),
        delete: () => limited.session.send('DELETE', `${base}/${victim.id}`),
        restore: () => limited.session.send('PATCH', `${base}/${victim.id}/restore`),
        'force-delete': () => limited.session.send('DELETE', `${base}/${victim.id}/force-delete`),
      };
      for (const action of PERMISSION_ACTIONS) {
        if (action === 'update' && !definition.editable) continue;
        await limited.grant(all.filter((name) => name !== permissionName(action, definition.permission)));
        expect((await calls[action]()).status, `${action} without ${permissionName(action, definition.permission)}`).toBe(403);
      }
      // A memo is read only by who may view the document it is about, too.
      const document = definition.name === 'document-memoranda' ? getResource(DOCUMENT_RESOURCES[victim.document_type]) : undefined;
      await limited.grant([
        permissionName('view', definition.permission),
        ...(document ? [permissionName('view', document.permission)] : []),
      ]);
      // Businesses are seen by their members only: the limited user views their own.
      const visible = definition.name === 'businesses' ? businessId : victim.id;
      expect((await limited.session.send('GET', `${base}/${visible}`)).status).toBe(200);
    });
  });

  it('names every resource once and points references only at known resources', () => {
    expect(new Set(registry.map((definition) => definition.name)).size).toBe(registry.length);
    for (const definition of registry) {
      for (const field of Object.values(definition.fields)) {
        if (field.kind === 'reference') expect(() => getResource(field.references as string)).not.toThrow();
      }
    }
  });
});
