import {
  createContext,
  Suspense,
  use,
  useEffect,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { downloadBlob } from '../lib/download.ts';
import { onPrint } from '../lib/print-prepare.ts';
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
   * Draw the chart at once, not when the frame nears the viewport: for a plain-SVG chart with
   * no code to load, whose drawing costs less than the observer (and is there for print at once).
   */
  eager?: boolean;
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

/**
 * How far outside the viewport a chart starts loading: about a phone screen ahead, so a chart is
 * drawn by the time a reader scrolls to it, while everything further down waits (a share link's
 * first paint and main thread are not spent on charts nobody has seen yet).
 */
export const CHART_ROOT_MARGIN = '800px 0px';

/** How long "Download PNG" waits for a chart it had to mount first before it gives up. */
const DRAW_TIMEOUT_MS = 15_000;

/**
 * True once `el` has come within CHART_ROOT_MARGIN of the viewport (then stays true); at once
 * where IntersectionObserver is missing (old browsers, unit tests under happy-dom), and for print.
 */
function useNearViewport(el: RefObject<HTMLElement | null>, eager: boolean): [boolean, () => void] {
  const [near, setNear] = useState(() => eager || typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const target = el.current;
    if (near || !target) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: CHART_ROOT_MARGIN },
    );
    observer.observe(target);
    // Printing (and "Save as PDF") lays out every page at once: a chart still waiting for the
    // reader to scroll to it would print blank, so print mounts them all.
    const stopPrint = onPrint(() => setNear(true));
    return () => {
      observer.disconnect();
      stopPrint();
    };
  }, [el, near]);
  return [near, () => setNear(true)];
}

/**
 * Resolves with the chart's SVG once one is in `root` and the figure has stopped changing for
 * `quietMs` (a chart mounted just now draws after its lazy chunk has loaded and its width is
 * known, and Recharts adds its legend and ticks over a few more commits). Rejects after
 * `timeoutMs` without a chart.
 */
export function whenChartDrawn(
  root: HTMLElement,
  { quietMs = 150, timeoutMs = DRAW_TIMEOUT_MS }: { quietMs?: number; timeoutMs?: number } = {},
): Promise<SVGSVGElement> {
  const now = chartSvg(root);
  if (now) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      clearTimeout(quiet);
      const svg = chartSvg(root);
      if (svg)
        quiet = setTimeout(() => {
          stop();
          resolve(chartSvg(root) ?? svg);
        }, quietMs);
    };
    const observer = new MutationObserver(settle);
    const timer = setTimeout(() => {
      stop();
      reject(new Error('The chart is not drawn yet.'));
    }, timeoutMs);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
      clearTimeout(quiet);
    };
    observer.observe(root, { childList: true, subtree: true, attributes: true });
  });
}

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
 * lazily (Recharts stays out of the first paint), only once the frame nears the viewport, and
 * fails alone. Until then the plot keeps its height (no layout shift when it draws).
 */
export function ChartFrame({ title, caption, height, table, children, legend = [], eager = false }: Props) {
  const ref = useRef<HTMLElement>(null);
  const plot = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [exportError, setExportError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [near, mountNow] = useNearViewport(ref, eager);
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
    const figure = ref.current;
    if (!figure) return;
    // A chart still below the fold has not been mounted: mount it now and export once it is drawn
    // (the button says so meanwhile, and a second click does not start a second wait).
    mountNow();
    setExporting(true);
    try {
      const svg = await whenChartDrawn(figure);
      const entries = [...legendEntriesIn(ref.current ?? document.createElement('div')), ...legend];
      downloadBlob(await chartToPngBlob(svg, title, entries), `${slug(title)}.png`);
    } catch (e) {
      setExportError(e instanceof Error ? e.message : String(e));
    } finally {
      setExporting(false);
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
            {near ? (
              <Suspense fallback={<ChartSkeleton height={height} label={`Loading chart: ${title}`} />}>
                {children}
              </Suspense>
            ) : null}
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
          disabled={exporting}
          aria-busy={exporting}
        >
          {exporting ? 'Preparing PNG…' : 'Download PNG'}
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
