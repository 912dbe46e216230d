import { describe, expect, it } from 'vitest';
import { centavosToPesos, formatPesos, formatPesosFixed, pesosToCentavos } from './money';

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

  it('formats PHP in en-US with 0 to 2 decimals', () => {
    expect(formatPesos(1234.5)).toBe('₱1,234.5');
    expect(formatPesos(1000)).toBe('₱1,000');
    expect(formatPesos(0.125)).toBe('₱0.13');
  });

  it('formats PHP for paper with exactly 2 decimals', () => {
    expect(formatPesosFixed(1008.5)).toBe('₱1,008.50');
    expect(formatPesosFixed(28)).toBe('₱28.00');
    expect(formatPesosFixed(0.125)).toBe('₱0.13');
    expect(formatPesosFixed(1_234_567.891)).toBe('₱1,234,567.89');
    expect(formatPesosFixed(0)).toBe('₱0.00');
    expect(formatPesosFixed(-0)).toBe('₱0.00');
    expect(formatPesosFixed(-0.001)).toBe('₱0.00');
    expect(formatPesosFixed(-12.5)).toBe('-₱12.50');
  });
});
