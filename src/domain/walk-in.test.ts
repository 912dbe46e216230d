import { describe, expect, it } from 'vitest';
import { isWalkInName, WALK_IN_NAME } from './walk-in';

describe('the walk-in customer', () => {
  it('is named so: a name starting with walk-in or walk in, in any case', () => {
    for (const name of [WALK_IN_NAME, 'Walk-in', '  walk in buyer', 'WALK-IN CUSTOMER', 'Walkin']) expect(isWalkInName(name)).toBe(true);
  });

  it('is no other contact', () => {
    for (const name of ['', 'Walking Street Sari-Sari', 'Sari-Sari walk-in', 'Walk', 'Walkinshaw Trading'])
      expect(isWalkInName(name)).toBe(false);
  });
});
