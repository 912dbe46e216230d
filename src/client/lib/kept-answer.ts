import { isNetworkFailure, NotAvailableOffline, readAnswer, saveAnswer } from './offline-store';
import type { ReadBack } from './resource-queries';

/**
 * An answer of the server that this device keeps under `key`, with the business's `resource`
 * answers: `ask` gets it and it is kept; without a network, the copy kept last comes back, saying
 * when it was kept (`savedOffline`). With none kept, `NotAvailableOffline` names `what` ("the list of places").
 */
export async function keptAnswer<T extends object>(
  businessId: number | null,
  resource: string,
  key: string,
  what: string,
  ask: () => Promise<T>,
): Promise<T & ReadBack> {
  try {
    const answer = await ask();
    if (businessId !== null) void saveAnswer(key, businessId, resource, answer, []);
    return answer;
  } catch (error) {
    if (!isNetworkFailure(error) || businessId === null) throw error;
    const saved = await readAnswer(key);
    if (saved) return { ...(saved.body as T), savedOffline: saved.savedAt };
    throw new NotAvailableOffline(what);
  }
}
