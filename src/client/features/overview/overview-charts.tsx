import { Bar, BarChart, CartesianGrid, LabelList, Tooltip, XAxis, YAxis, type TooltipContentProps } from 'recharts';
import type { ComponentProps, ReactNode } from 'react';
import { formatPesos } from '../../../domain/money';
import { formatPeriod } from './period';
import { SERIES, type Series } from './series';

/**
 * The overview's Recharts charts. The overview's cards load this file lazily, so Recharts is a
 * chunk of its own that comes after the cards' figures and lists. Colours are the theme's chart variables, right in light and dark mode;
 * each chart is hidden from screen readers, which read the same figures from a table instead.
 */

// Axis ticks only have room for "₱12.5K"; every figure a person reads in full uses formatPesos.
const compactPesos = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'PHP', notation: 'compact', maximumFractionDigits: 1 });
const compact = (value: unknown) => compactPesos.format(Number(value));

const AXIS_TICK = { fill: 'var(--muted-foreground)', fontSize: 12 };

function ChartTooltip({ active, payload, label, formatLabel }: TooltipContentProps & { formatLabel?: (label: string) => string }) {
  if (!active || payload.length === 0) return null;
  const detail = (payload[0]?.payload as { detail?: string } | undefined)?.detail;
  return (
    <div className="rounded-md border bg-popover px-3 py-2 text-sm text-popover-foreground shadow-md">
      <p className="font-medium">{formatLabel ? formatLabel(String(label)) : label}</p>
      {payload.map((entry) => (
        <p key={String(entry.dataKey)} className="flex items-center gap-2 tabular-nums">
          <span className="size-2.5 rounded-sm" style={{ background: entry.color }} aria-hidden />
          {entry.name}: {formatPesos(Number(entry.value))}
        </p>
      ))}
      {detail && <p className="text-muted-foreground">{detail}</p>}
    </div>
  );
}

/** The figures of a chart for screen readers: a visually hidden table (in a div: a table stretches to its content). */
function ChartTable({ caption, columns, rows }: { caption: string; columns: string[]; rows: string[][] }) {
  return (
    <div className="sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={index}>{cell}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A chart drawn for the eye and hidden from screen readers, which read its figures from its `ChartTable`. */
function ChartFigure({ children, ...table }: ComponentProps<typeof ChartTable> & { children: ReactNode }) {
  return (
    <div>
      <div aria-hidden="true">{children}</div>
      <ChartTable {...table} />
    </div>
  );
}

/** Sales and purchases side by side per day or month; `series` holds the ones the user may see. */
export function SalesPurchasesChart({
  data,
  series,
  caption,
}: {
  data: { period: string; sales?: number; purchases?: number }[];
  series: Series[];
  caption: string;
}) {
  return (
    <ChartFigure
      caption={caption}
      columns={['Period', ...series.map((name) => SERIES[name].label)]}
      rows={data.map((row) => [formatPeriod(row.period), ...series.map((name) => formatPesos(row[name] ?? 0))])}
    >
      <BarChart
        responsive
        accessibilityLayer={false}
        data={data}
        barGap={1}
        margin={{ top: 8, right: 0, bottom: 0, left: 0 }}
        style={{ width: '100%', height: 240 }}
      >
        <CartesianGrid vertical={false} stroke="var(--border)" />
        <XAxis dataKey="period" tickFormatter={formatPeriod} tickLine={false} axisLine={false} tick={AXIS_TICK} minTickGap={12} />
        <YAxis tickFormatter={compact} tickLine={false} axisLine={false} tick={AXIS_TICK} width={56} />
        <Tooltip cursor={{ fill: 'var(--muted)' }} content={(props) => <ChartTooltip {...props} formatLabel={formatPeriod} />} />
        {series.map((name) => (
          <Bar
            key={name}
            dataKey={name}
            name={SERIES[name].label}
            fill={SERIES[name].color}
            radius={[3, 3, 0, 0]}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartFigure>
  );
}

export interface RankedBar {
  name: string;
  value: number;
  /** A line under the amount in the tooltip and the table: "12 items", "48 pcs". */
  detail: string;
}

const shortName = (name: string) => (name.length > 40 ? `${name.slice(0, 39)}…` : name);

/** Horizontal bars, in the order given, each with its name above it and its amount at its end. */
export function RankedBarChart({
  bars,
  caption,
  color,
  detailLabel,
}: {
  bars: RankedBar[];
  caption: string;
  color: string;
  detailLabel: string;
}) {
  return (
    <ChartFigure
      caption={caption}
      columns={['Name', 'Amount', detailLabel]}
      rows={bars.map((bar) => [bar.name, formatPesos(bar.value), bar.detail])}
    >
      <BarChart
        responsive
        accessibilityLayer={false}
        layout="vertical"
        data={bars}
        margin={{ top: 4, right: 56, bottom: 0, left: 0 }}
        style={{ width: '100%', height: bars.length * 48 + 4 }}
      >
        <XAxis type="number" hide />
        {/* Names go above the bars rather than beside them: a phone has no room for both. */}
        <YAxis type="category" dataKey="name" hide />
        <Tooltip cursor={{ fill: 'var(--muted)' }} content={(props) => <ChartTooltip {...props} />} />
        <Bar dataKey="value" name="Amount" fill={color} radius={3} barSize={16} isAnimationActive={false}>
          <LabelList
            dataKey="name"
            content={({ x, y, value }) => (
              <text x={Number(x)} y={Number(y) - 6} fill="var(--foreground)" fontSize={13}>
                {shortName(String(value))}
              </text>
            )}
          />
          <LabelList dataKey="value" position="right" formatter={compact} fill="var(--muted-foreground)" fontSize={12} />
        </Bar>
      </BarChart>
    </ChartFigure>
  );
}
