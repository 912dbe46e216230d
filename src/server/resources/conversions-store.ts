import { conversions } from '../../domain/resources/conversions';
import { businessTableStore, type ResourceStore } from './store';

/** Conversions: a unit converts to another unit, never to itself. */
export const conversionsStore: ResourceStore = {
  ...businessTableStore(conversions),
  async validate(_db, _scope, input): Promise<Record<string, string[]>> {
    return input.from_unit_id !== undefined && input.from_unit_id === input.to_unit_id
      ? { to_unit_id: ['The to unit must be different from the from unit.'] }
      : {};
  },
};
