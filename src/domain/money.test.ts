import { describe, expect, it } from 'vitest';
import { centavosToPesos, formatPesos, pesosToCentavos } from './money';

describe('money', () => {
  it('stores pesos as whole centavos without float drift', () => {
    expect(pesosToCentavos(0.1 + 0.2)).toBe(30);
    expect(pesosToCentavos(19.99)).toBe(1999);
    expect(pesosToCentavos(1_000_000.005)).toBe(100_000_001);
    expect(centavosToPesos(1999)).toBe(19.99);
  });

  it('rounds a third decimal half away from zero as it is written, whatever its binary fraction', () => {
    // Each of these times 100 falls just below the half in binary (1.005 × 100 is 100.49999…).
    expect(pesosToCentavos(1.005)).toBe(101);
    expect(pesosToCentavos(2.675)).toBe(268);
    expect(pesosToCentavos(1.115)).toBe(112);
    expect(pesosToCentavos(0.005)).toBe(1);
    expect(pesosToCentavos(0.0049)).toBe(0);
    expect(pesosToCentavos(12.344)).toBe(1234);
    expect(pesosToCentavos(-1.005)).toBe(-101);
    expect(pesosToCentavos(-0.001)).toBe(0);
    expect(Object.is(pesosToCentavos(-0), 0)).toBe(true);
    expect(pesosToCentavos(1_000_000_000_000)).toBe(100_000_000_000_000);
    const misread: number[] = [];
    for (let centavos = -100_000; centavos <= 100_000; centavos += 1)
      if (pesosToCentavos(centavos / 100) !== centavos) misread.push(centavos);
    expect(misread).toEqual([]);
  });

  it('formats PHP in en-US with exactly 2 decimals, on screen as on paper', () => {
    expect(formatPesos(1008.5)).toBe('₱1,008.50');
    expect(formatPesos(144.8)).toBe('₱144.80');
    expect(formatPesos(28)).toBe('₱28.00');
    expect(formatPesos(0.125)).toBe('₱0.13');
    expect(formatPesos(1_234_567.891)).toBe('₱1,234,567.89');
    expect(formatPesos(10_000_000_000)).toBe('₱10,000,000,000.00');
    expect(formatPesos(-12.5)).toBe('-₱12.50');
  });

  it('writes what rounds to nothing as ₱0.00, never -₱0.00', () => {
    expect(formatPesos(0)).toBe('₱0.00');
    expect(formatPesos(-0)).toBe('₱0.00');
    expect(formatPesos(0.004)).toBe('₱0.00');
    expect(formatPesos(-0.001)).toBe('₱0.00');
    expect(formatPesos(-0.004)).toBe('₱0.00');
    expect(formatPesos(-0.005)).toBe('-₱0.01');
  });
});
