import { describe, expect, it } from 'vitest';
import { centavosToPesos, formatPesos, pesosToCentavos } from './money';

describe('money', () => {
  it('stores pesos as whole centavos without float drift', () => {
    expect(pesosToCentavos(0.1 + 0.2)).toBe(30);
    expect(pesosToCentavos(19.99)).toBe(1999);
    expect(pesosToCentavos(1_000_000.005)).toBe(100_000_001);
    expect(centavosToPesos(1999)).toBe(19.99);
  });

  it('formats PHP in en-US with 0 to 2 decimals', () => {
    expect(formatPesos(1234.5)).toBe('₱1,234.5');
    expect(formatPesos(1000)).toBe('₱1,000');
    expect(formatPesos(0.125)).toBe('₱0.13');
  });
});
