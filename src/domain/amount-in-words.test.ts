import { describe, expect, it } from 'vitest';
import { amountInWords, wholeNumberInWords } from './amount-in-words';

describe('amountInWords', () => {
  it('writes pesos in words and centavos as a fraction, as an invoice or check does', () => {
    expect(amountInWords(100_850)).toBe('One Thousand Eight Pesos and 50/100 Only');
    expect(amountInWords(417_178)).toBe('Four Thousand One Hundred Seventy-One Pesos and 78/100 Only');
    expect(amountInWords(100)).toBe('One Peso and 00/100 Only');
    expect(amountInWords(5)).toBe('Zero Pesos and 05/100 Only');
    expect(amountInWords(1_000_000_000_000)).toBe('Ten Billion Pesos and 00/100 Only');
    expect(amountInWords(123_456_789_01)).toBe(
      'One Hundred Twenty-Three Million Four Hundred Fifty-Six Thousand Seven Hundred Eighty-Nine Pesos and 01/100 Only',
    );
  });

  it('counts the teens, the tens and the scales without gaps', () => {
    expect(wholeNumberInWords(11)).toBe('Eleven');
    expect(wholeNumberInWords(40)).toBe('Forty');
    expect(wholeNumberInWords(1_000_001)).toBe('One Million One');
    expect(wholeNumberInWords(2_000_300_000)).toBe('Two Billion Three Hundred Thousand');
  });

  it('refuses what is not an amount', () => {
    expect(() => amountInWords(-1)).toThrow(RangeError);
    expect(() => amountInWords(1.5)).toThrow(RangeError);
  });
});
