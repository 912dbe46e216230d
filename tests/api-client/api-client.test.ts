import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, databaseKinds, demoBusinessIds, PASSWORD, startTestApp, type TestApp } from '../support/test-app';

/**
 * docs/api.md's generated-client example (docs/api-client-example.ts, shown whole in the doc) is
 * what an integrator would write: types made by openapi-typescript from /api/docs/json, calls made
 * with openapi-fetch. Here the types are made from the running server's document, the example is
 * type-checked against them in strict mode (and a misspelt body field or a wrong path in it is
 * refused, so the check can fail), and then it is run over HTTP against the server.
 *
 * The example stays out of tsconfig.json (docs/ is not included): it imports the generated
 * `./bodega-api`, which exists only once made, here in a temporary directory.
 */

const EXAMPLE = resolve('docs/api-client-example.ts');
const exampleText = readFileSync(EXAMPLE, 'utf8');

/** Where openapi-fetch's types are, for an example copied outside the project. */
const OPENAPI_FETCH_TYPES = resolve('node_modules/openapi-fetch/dist/index.d.mts');

const STRICT: ts.CompilerOptions = {
  noEmit: true,
  strict: true,
  noUncheckedIndexedAccess: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  skipLibCheck: true,
  paths: { 'openapi-fetch': [OPENAPI_FETCH_TYPES] },
};

interface Brand {
  id: number;
  name: string | null;
  version: number;
  deleted_at: string | null;
}

/** What `tryTheApi` answers: typed here, as importing the example by name would take it (and its generated import) into the project's typecheck. */
interface ExampleModule {
  tryTheApi(
    baseUrl: string,
    email: string,
    password: string,
  ): Promise<{
    businessId: number;
    items: { onPage: number; total: number; totalExact: boolean };
    made: Brand;
    replayed: boolean;
    etag: string;
    renamed: Brand;
    stale: { status: number; message: string | undefined };
    trashedAt: string | null;
  }>;
}

/** `text` with `from` replaced by `to`, which must be there. */
function mistake(text: string, from: string, to: string): string {
  expect(text, `the example holds ${from}`).toContain(from);
  return text.replace(from, to);
}

/** The diagnostics of each file, as `line: message`. */
function diagnosticsOf(files: Record<string, string>): Record<string, string[]> {
  const program = ts.createProgram(Object.values(files), STRICT);
  return Object.fromEntries(
    Object.entries(files).map(([name, file]) => [
      name,
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => {
        const line =
          diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
        return `${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      }),
    ]),
  );
}

describe('docs/api.md', () => {
  it('shows the example file as it is', () => {
    const blocks = [...readFileSync('docs/api.md', 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
    expect(blocks).toContain(exampleText);
  });
});

describe.each(databaseKinds)('the generated-client example on %s', (kind) => {
  let test: TestApp;
  let baseUrl: string;
  let directory: string;

  beforeAll(async () => {
    test = await startTestApp(kind);
    baseUrl = await test.app.listen({ host: '127.0.0.1', port: 0 });
    directory = mkdtempSync(join(tmpdir(), 'bodega-api-client-'));
  });
  afterAll(async () => {
    rmSync(directory, { recursive: true, force: true });
    await test?.close();
  });

  // The document is the same on either database: made and checked once. Its types are about 4 MB: making
  // and checking them takes 10 s or so, more on a busy machine.
  it.runIf(kind === databaseKinds[0])(
    'type-checks strictly against types made from /api/docs/json, and only when it is right',
    async () => {
      const answer = await fetch(`${baseUrl}/api/docs/json`);
      expect(answer.status).toBe(200);
      writeFileSync(join(directory, 'bodega-api.d.ts'), astToString(await openapiTS(await answer.json(), { silent: true })));
      const example = join(directory, 'example.ts');
      const mistaken = join(directory, 'mistaken.ts');
      writeFileSync(example, exampleText);
      // Two mistakes in one copy: a misspelt optional body field, which the server would drop without a
      // word (and openapi-fetch would let through in a body not given its type), and a path the API does not have.
      const misspelt = mistake(exampleText, "description: 'Made", "descripton: 'Made");
      writeFileSync(mistaken, mistake(misspelt, "api.GET('/api/brands/{id}'", "api.GET('/api/brand/{id}'"));

      const found = diagnosticsOf({ example, mistaken });
      expect(found.example).toEqual([]);
      expect(found.mistaken.join('\n')).toMatch(/'descripton' does not exist in type/);
      expect(found.mistaken.join('\n')).toMatch(/'"\/api\/brand\/\{id\}"' is not assignable/);
    },
    60_000,
  );

  it('runs against the server over HTTP: signs in, lists, creates once, reads, updates with If-Match, trashes', async () => {
    const { tryTheApi } = (await import(pathToFileURL(EXAMPLE).href)) as ExampleModule;
    const result = await tryTheApi(baseUrl, ADMIN_EMAIL, PASSWORD);

    const [firstBusiness] = await demoBusinessIds(test);
    expect(result.businessId).toBe(firstBusiness);
    expect(result.items.onPage).toBeGreaterThan(0);
    expect(result.items).toMatchObject({ total: expect.any(Number), totalExact: true });
    expect(result.made).toMatchObject({ name: expect.stringMatching(/^Brand /), version: 1, deleted_at: null });
    expect(result.replayed).toBe(true);
    expect(result.etag).toBe('"1"');
    expect(result.renamed).toMatchObject({ id: result.made.id, name: `${result.made.name} (renamed)`, version: 2 });
    expect(result.stale.status).toBe(412);
    expect(result.stale.message).toMatch(/changed by someone else/);
    expect(result.trashedAt).toEqual(expect.any(String));

    // As the server has it: one brand made (the repeat made none), renamed, in the trash.
    const admin = await test.signIn(ADMIN_EMAIL);
    const named = await admin.send('GET', `/api/brands?name=${encodeURIComponent(result.made.name ?? '')}&with_trashed=1`);
    expect(named.body.data.map((brand: { id: number }) => brand.id)).toEqual([result.made.id]);
    const stored = await admin.send('GET', `/api/brands/${result.made.id}`);
    expect(stored.body.data).toMatchObject({ name: `${result.made.name} (renamed)`, version: 3, deleted_at: result.trashedAt });
  });
});
