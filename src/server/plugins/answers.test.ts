import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerSerializer } from './answers';

/** A server with routes whose answer schemas only check, and ones that would change the answer. */
async function serverWith(check: boolean) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer(check));
  const record = { id: 7, name: 'Canton', price: 12.5, note: null };
  const routes = {
    '/checks': z.looseObject({ id: z.number(), name: z.string() }),
    '/strips': z.object({ id: z.number(), name: z.string() }),
    '/defaults': z.object({
      id: z.number(),
      name: z.string(),
      price: z.number(),
      note: z.string().nullable(),
      unit: z.string().default('pc'),
    }),
    '/refuses': z.object({ id: z.string() }),
  };
  for (const [url, schema] of Object.entries(routes)) app.get(url, { schema: { response: { 200: schema } } }, async () => record);
  await app.ready();
  return app;
}

describe('answers written with and without their schema check', () => {
  it('checking: passes an answer its schema only checks, and refuses one it would strip, fill in or refuse', async () => {
    const app = await serverWith(true);
    const checks = await app.inject('/checks');
    expect(checks.statusCode).toBe(200);
    expect(checks.json()).toEqual({ id: 7, name: 'Canton', price: 12.5, note: null });
    for (const url of ['/strips', '/defaults', '/refuses']) expect((await app.inject(url)).statusCode, url).toBe(500);
    await app.close();
  });

  it('unchecked (production): the answer as it is, the same JSON the check passes', async () => {
    const checking = await serverWith(true);
    const app = await serverWith(false);
    expect((await app.inject('/checks')).body).toBe((await checking.inject('/checks')).body);
    expect((await app.inject('/refuses')).json()).toEqual({ id: 7, name: 'Canton', price: 12.5, note: null });
    await Promise.all([app.close(), checking.close()]);
  });
});
