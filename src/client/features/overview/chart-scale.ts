/** The overview charts' scales, worked out from the figures alone (overview-charts.tsx draws them). */

/** How many steps the value axis is cut into. */
const TICK_STEPS = 4;

/** The value axis' ticks, from zero up past `max` in round steps (1, 2, 2.5 or 5 times a power of ten). */
export function valueTicks(max: number): number[] {
  if (max <= 0) return Array.from({ length: TICK_STEPS + 1 }, (_, index) => index);
  const rough = max / TICK_STEPS;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? 10 * power;
  // Rounded to what a step holds, so that 3 × 0.1 is 0.3.
  return Array.from({ length: Math.ceil(max / step - 1e-9) + 1 }, (_, index) => Number((index * step).toPrecision(12)));
}

/** Every how many periods a label fits under the axis, `width` pixels wide: labels keep a gap between them. */
export function labelEvery(count: number, width: number, labelWidth: number): number {
  const fit = Math.max(1, Math.floor(width / (labelWidth + 12)));
  return Math.max(1, Math.ceil(count / fit));
}
