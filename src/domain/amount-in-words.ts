/**
 * An amount in words, as a Philippine invoice or check writes it: "One Thousand Eight Pesos and
 * 50/100 Only". Money is integer centavos, up to the most a document may total (ten billion pesos).
 */

const ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];
const SCALES: [number, string][] = [
  [1_000_000_000, 'Billion'],
  [1_000_000, 'Million'],
  [1_000, 'Thousand'],
];

/** 1 to 999 in words. */
function hundreds(value: number): string {
  const words: string[] = [];
  if (value >= 100) words.push(`${ONES[Math.floor(value / 100)]} Hundred`);
  const rest = value % 100;
  if (rest >= 20) words.push(TENS[Math.floor(rest / 10)] + (rest % 10 ? `-${ONES[rest % 10]}` : ''));
  else if (rest > 0) words.push(ONES[rest]);
  return words.join(' ');
}

/** A whole number of pesos in words; "Zero" for none. */
export function wholeNumberInWords(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Not a whole number of pesos: ${value}`);
  if (value === 0) return 'Zero';
  const words: string[] = [];
  let rest = value;
  for (const [size, name] of SCALES) {
    if (rest >= size) {
      words.push(`${wholeNumberInWords(Math.floor(rest / size))} ${name}`);
      rest %= size;
    }
  }
  if (rest > 0) words.push(hundreds(rest));
  return words.join(' ');
}

export function amountInWords(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos < 0) throw new RangeError(`Not an amount in centavos: ${centavos}`);
  const pesos = Math.floor(centavos / 100);
  const cents = String(centavos % 100).padStart(2, '0');
  return `${wholeNumberInWords(pesos)} ${pesos === 1 ? 'Peso' : 'Pesos'} and ${cents}/100 Only`;
}
