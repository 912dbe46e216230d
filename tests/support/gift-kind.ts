import type { ResourceDefinition } from '../../src/domain/resource';
import { stockAdjustments } from '../../src/domain/resources/stock-adjustments';

/**
 * A kind of document made up for a test and only declared: goods given away at their place, each
 * line out on hand there, on a stock adjustment's definition; `names` keep it apart from any other.
 */
export function giftKind(names: {
  name: string;
  table: string;
  singular: string;
  plural?: string;
  type: string;
  prefix: string;
}): ResourceDefinition {
  const { type, prefix, ...resource } = names;
  return {
    ...stockAdjustments,
    ...resource,
    document: {
      ...stockAdjustments.document!,
      type,
      prefix,
      lines: 'quantities',
      stock: 'out',
      effects: { stock: [{ at: 'own', onHand: -1, inTransit: 0 }] },
    },
  };
}
