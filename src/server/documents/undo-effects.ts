import type { ResourceDefinition } from '../../domain/resource';
import { moveBack, ownPlaceEffects, type Reversal } from './document-store';
import { balanceVoid, paymentVoid } from './payments';

/**
 * What a document's void undoes, read from its kind's declared effects (`document.effects`),
 * with its kind's own work (`own`, a part's `void`) done first: the goods it moved at its own
 * place moved back, what it settled owed again, and a document that is owed refused while
 * payments or memoranda settle it, and owing nothing after. Stock it moved elsewhere (between two
 * places, or only once closed) is its kind's own to move back: a kind declaring such a move
 * without its own void is refused as the app starts. None for a kind whose void undoes nothing.
 */
export function voidOf(definition: ResourceDefinition, own?: Reversal): Reversal | undefined {
  const effects = definition.document?.effects ?? {};
  const atOwnPlace = ownPlaceEffects(definition);
  if (atOwnPlace.length < (effects.stock ?? []).length && !own) {
    throw new Error(`${definition.name} moves stock between places or on closing: its void must say how that is moved back.`);
  }
  const undo: Reversal | undefined =
    atOwnPlace.length === 0
      ? own
      : async (trx, scope, row, given) => {
          const summary = await own?.(trx, scope, row, given);
          await moveBack(trx, scope, row, definition);
          return summary;
        };
  if (effects.settles) {
    const settled = paymentVoid(definition);
    return async (trx, scope, row, given) => {
      await settled(trx, scope, row, given);
      return undo?.(trx, scope, row, given);
    };
  }
  if (effects.owed) return balanceVoid(definition, undo);
  return undo;
}
