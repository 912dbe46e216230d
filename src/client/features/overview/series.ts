/** The sales and purchases series: their names and their theme colours, in charts and legends. */
export const SERIES = {
  sales: { label: 'Sales', color: 'var(--chart-1)' },
  purchases: { label: 'Purchases', color: 'var(--chart-2)' },
} as const;

export type Series = keyof typeof SERIES;
