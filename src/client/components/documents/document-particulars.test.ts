import { describe, expect, it } from 'vitest';
import { tinAt } from './document-particulars';

describe('tinAt', () => {
  it('puts the place’s branch code after a TIN of nine digits, and leaves a TIN that has one as it is', () => {
    expect(tinAt('123-456-789', '00012')).toBe('123-456-789-00012');
    expect(tinAt('123-456-789', '000')).toBe('123-456-789-000');
    expect(tinAt('123-456-789-000', '00012')).toBe('123-456-789-000');
    expect(tinAt('123-456-789', null)).toBe('123-456-789');
    expect(tinAt(null, '00012')).toBeNull();
    expect(tinAt('', '00012')).toBeNull();
  });
});
