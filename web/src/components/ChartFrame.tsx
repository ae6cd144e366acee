import { createContext, Suspense, use, useEffect, useRef, useState, type ReactNode } from 'react';
import { downloadBlob } from '../lib/download.ts';
import { slug } from '../lib/format.ts';
import { chartToPngBlob, legendEntriesIn, type LegendEntry } from '../lib/png-export.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { ChartSkeleton } from './States.tsx';
import { TableScroll } from './TableScroll.tsx';

type Props = {
  title: string;
  /** One line under the title: what is plotted, in which unit. */
  caption?: ReactNode;
  height: number;
  /** The same numbers as a table (the accessible alternative); omit when a table is already beside the chart. */
  table?: ReactNode;
  /** The (lazy) chart. */
  children: ReactNode;
  /**
   * Legend entries drawn into the exported PNG when the page shows the legend outside the chart
   * (Recharts' own <Legend> inside the chart is read from the page and needs nothing here).
   */
  legend?: readonly LegendEntry[];
};

/** The plot area's width in CSS pixels (0 before the first layout): charts size their axes by it. */
const ChartWidthContext = createContext(0);

export function useChartWidth(): number {
  return use(ChartWidthContext);
}

/** Category axis width for horizontal bar charts: room for labels, but never most of a phone screen. */
export function categoryAxisWidth(plotWidth: number, preferred: number): number {
  if (plotWidth <= 0) return preferred;
  return Math.max(90, Math.min(preferred, Math.round(plotWidth * 0.38)));
}

/** Height in CSS pixels of a horizontal bar chart (HorizontalBarChart) with `rows` categories: one formula for every such chart and its frame. */
export const barChartHeight = (rows: number) => 60 + rows * 34;

/** The largest SVG in the figure is the chart (legend icons are small SVGs too). */
function chartSvg(root: HTMLElement | null): SVGSVGElement | null {
  if (!root) return null;
  let best: SVGSVGElement | null = null;
  let bestArea = -1;
  root.querySelectorAll<SVGSVGElement>('.chart-frame__plot svg').forEach((svg) => {
    const r = svg.getBoundingClientRect();
    const area =
      (r.width || Number(svg.getAttribute('width'))) * (r.height || Number(svg.getAttribute('height')));
    if (area > bestArea) {
      best = svg;
      bestArea = area;
    }
  });
  return best;
}

/**
 * A chart with its title, a data-table alternative, and "Download PNG". The chart itself loads
 * lazily (Recharts stays out of the first paint) and fails alone.
 */
export function ChartFrame({ title, caption, height, table, children, legend = [] }: Props) {
  const ref = useRef<HTMLElement>(null);
  const plot = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [exportError, setExportError] = useState<string | null>(null);
  useEffect(() => {
    const el = plot.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) =>
      setWidth(Math.round(entries[0]?.contentRect.width ?? 0)),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const exportPng = async () => {
    setExportError(null);
    const svg = chartSvg(ref.current);
    if (!svg) {
      setExportError('The chart is not drawn yet.');
      return;
    }
    try {
      const entries = [...legendEntriesIn(ref.current ?? document.createElement('div')), ...legend];
      downloadBlob(await chartToPngBlob(svg, title, entries), `${slug(title)}.png`);
    } catch (e) {
      setExportError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <figure className="chart-frame" ref={ref}>
      <figcaption className="chart-frame__head">
        <span className="chart-frame__title">{title}</span>
        {caption ? <span className="chart-frame__caption">{caption}</span> : null}
      </figcaption>
      <div className="chart-frame__plot" style={{ minHeight: height }} ref={plot}>
        <ChartWidthContext value={width}>
          <ErrorBoundary what={`the chart “${title}”`}>
            <Suspense fallback={<ChartSkeleton height={height} label={`Loading chart: ${title}`} />}>
              {children}
            </Suspense>
          </ErrorBoundary>
        </ChartWidthContext>
      </div>
      <div className="chart-frame__tools">
        {table ? (
          <details className="chart-frame__table">
            <summary aria-label={`Data table: ${title}`}>Data table</summary>
            <TableScroll label={`${title}: data table`}>{table}</TableScroll>
          </details>
        ) : (
          <span />
        )}
        <button
          type="button"
          className="btn btn--small btn--ghost"
          onClick={exportPng}
          aria-label={`Download PNG: ${title}`}
        >
          Download PNG
        </button>
      </div>
      {exportError ? (
        <p className="field__error" role="alert">
          PNG export failed: {exportError}
        </p>
      ) : null}
    </figure>
  );
}
