import type { TKpiReport } from '@coldtrace/contract';
import Box from '@mui/material/Box';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const LINE = '#c62828';
const AXIS = '#5f6368';
const GRID = 'rgba(0,0,0,0.08)';
const HEIGHT = 240;

const percent = (rate: number) =>
  `${(rate * 100).toLocaleString('en', { maximumFractionDigits: 1 })} %`;

/**
 * The excursion rate per week or month (uPlot, as the record's temperature
 * chart). Overflow hidden: while the window narrows, the canvas keeps its old
 * width until the resize observer catches up, and must not widen the page.
 */
export function ExcursionChart({ report }: { report: TKpiReport }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const xs = report.series.map((p) => Date.parse(`${p.period_start}T00:00:00Z`) / 1000);
    const ys = report.series.map((p) => (p.shipments === 0 ? null : p.excursion_rate * 100));
    const counts = new Map(report.series.map((p, i) => [xs[i], p]));
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        scales: { x: { time: true }, y: { range: [0, 100] } },
        legend: { show: true },
        series: [
          {
            label: report.interval === 'week' ? 'Week of' : 'Month',
            value: (_u, v) => (v == null ? '–' : new Date(v * 1000).toISOString().slice(0, 10)),
          },
          {
            label: 'Excursion rate',
            stroke: LINE,
            width: 2,
            points: { show: true, size: 6, fill: LINE },
            spanGaps: true,
            value: (_u, v, _s, idx) => {
              // No point under the cursor: a dash, as the time; an empty week or month says so.
              if (idx == null) return '–';
              const point = counts.get(xs[idx]);
              if (v == null || !point) return 'no shipments';
              return `${percent(point.excursion_rate)} (${point.shipments_with_excursion} of ${point.shipments})`;
            },
          },
        ],
        axes: [
          { stroke: AXIS, grid: { stroke: GRID }, ticks: { stroke: GRID }, space: 60 },
          {
            stroke: AXIS,
            grid: { stroke: GRID },
            ticks: { stroke: GRID },
            size: 52,
            values: (_u, splits) => splits.map((v) => `${v} %`),
          },
        ],
      },
      [xs, ys],
      element,
    );
    const observer = new ResizeObserver((entries) => {
      const width = Math.floor(entries[0]?.contentRect.width ?? 0);
      if (width > 0 && width !== plot.width) plot.setSize({ width, height: HEIGHT });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [report]);

  const label =
    `Excursion rate per ${report.interval} from ${report.from} to ${report.to}: ` +
    report.series
      .filter((p) => p.shipments > 0)
      .map((p) => `${p.period_start} ${percent(p.excursion_rate)}`)
      .join(', ');
  return (
    <Box
      ref={container}
      role="img"
      aria-label={label}
      sx={{ width: '100%', minWidth: 0, overflow: 'hidden' }}
    />
  );
}
