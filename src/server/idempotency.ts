import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { constraintViolation, nowIso, transientFailure } from './db/dialect';
import { HttpError, validationError } from './errors';
import { owesCosts } from './documents/cost-follow-up';
import type { Trx } from './db/scope';

export interface WriteResult {
  status: number;
  body?: unknown;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${stableJson(request.body ?? null)}`)
    .digest('hex');
}

/**
 * Runs `work` in one transaction, again (three tries in all) when PostgreSQL gave up on it as a
 * deadlock or a serialization failure: nothing of a try that failed so was written.
 */
async function inTransaction<T>(request: FastifyRequest, work: (trx: Trx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      let written: Trx | undefined;
      const result = await request.server.db.transaction().execute((trx) => work((written = trx)));
      // Goods moved: they are costed once the answer has gone out (plugins/cost-follow-up.ts).
      if (owesCosts(written!)) request.costsOwed = true;
      return result;
    } catch (error) {
      if (attempt >= 3 || !transientFailure(error)) throw error;
    }
  }
}

/**
 * Runs a write in one transaction and answers it. With an `Idempotency-Key` header, the first
 * successful answer is stored in that same transaction, keyed by user, business and key; a
 * repeat gets that answer back (header `Idempotent-Replayed: true`) and changes nothing, and the
 * same key sent with another request is refused with 422. Failed writes store nothing, so a
 * corrected request may reuse its key.
 */
export async function runWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  write: (trx: Trx) => Promise<WriteResult>,
): Promise<FastifyReply> {
  const db = request.server.db;
  const key = request.headers['idempotency-key'];
  if (key === undefined) {
    const result = await inTransaction(request, write);
    return reply.status(result.status).send(result.body);
  }
  if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw validationError({ idempotency_key: ['The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID, say).'] });
  }
  const owner = { user_id: request.actor?.userId ?? 0, business_id: request.tenant?.businessId ?? 0, key };
  const hash = requestHash(request);

  /**
   * Sends the stored answer, if there is one, and says whether it did. (It cannot hand back the
   * reply: a Fastify reply is a thenable, which an async function would await into undefined.)
   */
  const replayed = async (): Promise<boolean> => {
    const stored = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', owner.user_id)
      .where('business_id', '=', owner.business_id)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!stored) return false;
    if (stored.request_hash !== hash) {
      throw validationError({ idempotency_key: ['This Idempotency-Key was already used for a different request.'] });
    }
    const body = stored.response_body === '' ? undefined : JSON.parse(stored.response_body);
    reply.status(stored.status_code).header('idempotent-replayed', 'true').send(body);
    return true;
  };

  if (await replayed()) return reply;
  try {
    const result = await inTransaction(request, async (trx) => {
      // Claim the key before writing: a concurrent twin's claim waits on this row until we
      // commit, then fails as a duplicate and replays our answer instead of writing again.
      await trx
        .insertInto('idempotency_keys')
        .values({ ...owner, request_hash: hash, status_code: 0, response_body: '', created_at: nowIso() })
        .execute();
      const answer = await write(trx);
      await trx
        .updateTable('idempotency_keys')
        .set({ status_code: answer.status, response_body: answer.body === undefined ? '' : JSON.stringify(answer.body) })
        .where('user_id', '=', owner.user_id)
        .where('business_id', '=', owner.business_id)
        .where('key', '=', key)
        .execute();
      return answer;
    });
    return reply.status(result.status).send(result.body);
  } catch (error) {
    if (!(error instanceof HttpError) && constraintViolation(error) === 'unique') {
      if (await replayed()) return reply;
    }
    throw error;
  }
}
