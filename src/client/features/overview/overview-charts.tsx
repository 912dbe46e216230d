import { useEffect, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import { formatPesos } from '../../../domain/money';
import { cn } from '../../lib/utils';
import { labelEvery, valueTicks } from './chart-scale';
import { formatPeriod } from './period';
import { SERIES, type Series } from './series';

/**
 * The overview's charts, drawn by the browser's own layout: each bar is a box sized in percent of
 * its plot, so nothing is measured or laid out in script (a chart library's layout held a phone for
 * most of a second). Colours are the theme's chart variables, right in light and dark mode; each
 * chart is hidden from screen readers, which read the same figures from a table instead.
 */

// Axis ticks only have room for "₱12.5K"; every figure a person reads in full uses formatPesos.
const compactPesos = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'PHP', notation: 'compact', maximumFractionDigits: 1 });
const compact = (value: number) => compactPesos.format(value);

/** The width of the element `ref` names, followed as it changes (0 until it is first laid out). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** What a pointer on a chart's period or bar shows: its label, its amounts, and a line of detail. */
function ChartTooltip({
  label,
  entries,
  detail,
  className,
  left,
}: {
  label: string;
  entries: { name: string; color: string; value: number }[];
  detail?: string;
  className?: string;
  /** Where it stands across its chart, when not set by `className`. */
  left?: string;
}) {
  return (
    <div
      style={{ left }}
      className={cn(
        'pointer-events-none absolute z-10 w-max max-w-60 rounded-md border bg-popover px-3 py-2 text-sm text-popover-foreground shadow-md',
        className,
      )}
    >
      <p className="font-medium">{label}</p>
      {entries.map((entry) => (
        <p key={entry.name} className="flex items-center gap-2 tabular-nums">
          <span className="size-2.5 rounded-sm" style={{ background: entry.color }} aria-hidden />
          {entry.name}: {formatPesos(entry.value)}
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

const percent = (value: number, max: number) => `${max > 0 ? (Math.max(value, 0) / max) * 100 : 0}%`;

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
  const [hovered, setHovered] = useState<number | null>(null);
  const [plotRef, plotWidth] = useWidth();
  const ticks = valueTicks(Math.max(0, ...data.flatMap((row) => series.map((name) => row[name] ?? 0))));
  const top = ticks[ticks.length - 1];
  const labels = data.map((row) => formatPeriod(row.period));
  // Until the plot is laid out, a phone's width; a label is about 7 px a character at 12 px.
  const every = labelEvery(data.length, plotWidth || 300, 7 * Math.max(0, ...labels.map((label) => label.length)));
  const shown = hovered === null ? undefined : data[hovered];
  return (
    <ChartFigure
      caption={caption}
      columns={['Period', ...series.map((name) => SERIES[name].label)]}
      rows={data.map((row, index) => [labels[index], ...series.map((name) => formatPesos(row[name] ?? 0))])}
    >
      <div className="flex pt-2 text-xs text-muted-foreground tabular-nums" style={{ height: 240 }}>
        <div className="relative mb-7 w-14 shrink-0">
          {ticks.map((tick) => (
            <span key={tick} className="absolute right-2 translate-y-1/2 leading-none" style={{ bottom: percent(tick, top) }}>
              {compact(tick)}
            </span>
          ))}
        </div>
        <div className="flex min-w-0 flex-1 flex-col">
          <div ref={plotRef} className="relative flex-1" onPointerLeave={() => setHovered(null)}>
            {ticks.map((tick) => (
              <div key={tick} className="absolute inset-x-0 border-t border-border" style={{ bottom: percent(tick, top) }} />
            ))}
            <div className="absolute inset-0 flex">
              {data.map((row, index) => (
                <div
                  key={row.period}
                  className={cn('flex h-full flex-1 justify-center', hovered === index && 'bg-muted')}
                  onPointerEnter={() => setHovered(index)}
                >
                  {/* A tenth of the period's width free on either side. */}
                  <div className="flex h-full w-4/5 items-end justify-center gap-px">
                    {series.map((name) => (
                      <div
                        key={name}
                        data-chart-bar={name}
                        className="max-w-12 flex-1 rounded-t-[3px]"
                        style={{ height: percent(row[name] ?? 0, top), background: SERIES[name].color }}
                      />
                    ))}
                  </div>
                </div>
              ))}
            </div>
            {shown && hovered !== null && (
              <ChartTooltip
                label={labels[hovered]}
                entries={series.map((name) => ({ name: SERIES[name].label, color: SERIES[name].color, value: shown[name] ?? 0 }))}
                // Beside the period, on the side with more room.
                className={hovered < data.length / 2 ? 'top-2 ml-2' : 'top-2 -ml-2 -translate-x-full'}
                left={`${((hovered < data.length / 2 ? hovered + 1 : hovered) / data.length) * 100}%`}
              />
            )}
          </div>
          <div className="relative h-7">
            {labels.map(
              (label, index) =>
                index % every === 0 && (
                  <span
                    key={data[index].period}
                    className="absolute top-2 -translate-x-1/2 leading-none whitespace-nowrap"
                    style={{ left: `${((index + 0.5) / data.length) * 100}%` }}
                  >
                    {label}
                  </span>
                ),
            )}
          </div>
        </div>
      </div>
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
  const [hovered, setHovered] = useState<number | null>(null);
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  return (
    <ChartFigure
      caption={caption}
      columns={['Name', 'Amount', detailLabel]}
      rows={bars.map((bar) => [bar.name, formatPesos(bar.value), bar.detail])}
    >
      <ul className="relative pt-1" onPointerLeave={() => setHovered(null)}>
        {bars.map((bar, index) => (
          <li
            key={index}
            className={cn('relative flex h-12 flex-col justify-end pb-1', hovered === index && 'bg-muted')}
            onPointerEnter={() => setHovered(index)}
          >
            {/* Names go above the bars rather than beside them: a phone has no room for both. */}
            <span className="truncate text-[13px] text-foreground">{shortName(bar.name)}</span>
            <div className="relative mr-14 h-4">
              <div data-chart-bar="value" className="h-full rounded-[3px]" style={{ width: percent(bar.value, max), background: color }} />
              <span
                className="absolute top-1/2 -translate-y-1/2 pl-1.5 text-xs whitespace-nowrap text-muted-foreground tabular-nums"
                style={{ left: percent(bar.value, max) }}
              >
                {compact(bar.value)}
              </span>
            </div>
            {hovered === index && (
              <ChartTooltip
                label={bar.name}
                entries={[{ name: 'Amount', color, value: bar.value }]}
                detail={bar.detail}
                className={cn('right-0', index < bars.length / 2 ? 'top-full mt-1' : 'bottom-full mb-1')}
              />
            )}
          </li>
        ))}
      </ul>
    </ChartFigure>
  );
}
