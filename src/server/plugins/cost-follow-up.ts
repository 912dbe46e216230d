import type { FastifyInstance } from 'fastify';
import { followUps, settleCosts } from '../documents/cost-follow-up';

declare module 'fastify' {
  interface FastifyRequest {
    /** Its write moved goods: they are costed once its answer has gone out (documents/cost-follow-up.ts). */
    costsOwed: boolean;
  }
}

/**
 * Costing after the answer (documents/cost-follow-up.ts): a write that moved goods is answered
 * first, then its follow-up costs them, with those of the answers that came within `FOLLOW_UP_MS`.
 * What a stopped server left waiting is costed as the app starts, and an instance sweeps for what
 * another left, every `SWEEP_MS`.
 */
export async function registerCostFollowUp(app: FastifyInstance): Promise<void> {
  await settleCosts(app.db);
  app.decorateRequest('costsOwed', false);
  let owed: ReturnType<typeof followUps> | undefined;
  app.addHook('onReady', async () => void (owed = followUps(app.db, app.log)));
  app.addHook('onResponse', async (request) => {
    if (request.costsOwed) owed?.owe();
  });
  app.addHook('preClose', async () => owed?.stop());
}
