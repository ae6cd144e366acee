import {
  createContext,
  startTransition,
  Suspense,
  use,
  useCallback,
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
 * When a chart may mount: 'far' until `el` comes within CHART_ROOT_MARGIN of the viewport, then
 * 'near' (it mounts in its turn, see `useMountTurn`), 'now' where IntersectionObserver is missing
 * (old browsers, unit tests under happy-dom), for print, and once `mountNow` is called.
 */
function useNearViewport(el: RefObject<HTMLElement | null>): ['far' | 'near' | 'now', () => void] {
  const [near, setNear] = useState<'far' | 'near' | 'now'>(() =>
    typeof IntersectionObserver === 'undefined' ? 'now' : 'far',
  );
  useEffect(() => {
    const target = el.current;
    if (near === 'now' || !target) return;
    const observer =
      near === 'far'
        ? new IntersectionObserver(
            (entries) => {
              if (entries.some((e) => e.isIntersecting)) setNear((n) => (n === 'far' ? 'near' : n));
            },
            { rootMargin: CHART_ROOT_MARGIN },
          )
        : null;
    observer?.observe(target);
    // Printing (and "Save as PDF") lays out every page at once: a chart still waiting for the
    // reader to scroll to it would print blank, so print mounts them all.
    const stopPrint = onPrint(() => setNear('now'));
    return () => {
      observer?.disconnect();
      stopPrint();
    };
  }, [el, near]);
  return [near, () => setNear('now')];
}

/**
 * Charts that came near the viewport mount one at a time, each in its own task once the previous
 * one has committed and the page has been idle: a scroll bringing in three Recharts charts used to
 * mount them in one render, a 100–170 ms task (bench P16: the first step of every what-if drag
 * right after scrolling to the slider), now one chart's worth per task, input handled between.
 */
const turnQueue: { token: object; start: () => void }[] = [];
/** The chart mounting now, RESTING while the page settles after one, else null (free). */
let turnHolder: object | null = null;
const RESTING = {};
/** A chart that never commits (its chunk failed to load) gives the turn up after this long. */
const TURN_TIMEOUT_MS = 3_000;

function afterIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 300 });
  else setTimeout(run, 0);
}

function nextTurn(): void {
  const next = turnQueue.shift();
  if (!next) return;
  turnHolder = next.token;
  setTimeout(() => leaveTurn(next.token), TURN_TIMEOUT_MS);
  next.start();
}

function cancelWait(token: object): void {
  const i = turnQueue.findIndex((e) => e.token === token);
  if (i >= 0) turnQueue.splice(i, 1);
}

function leaveTurn(token: object): void {
  cancelWait(token);
  if (turnHolder !== token) return;
  turnHolder = RESTING;
  afterIdle(() => {
    turnHolder = null;
    nextTurn();
  });
}

/** [whether this chart may mount, call once it has committed]; asks for a turn while `wanted`. */
function useMountTurn(wanted: boolean): [boolean, () => void] {
  const [granted, setGranted] = useState(false);
  const [token] = useState(() => ({}));
  useEffect(() => {
    if (!wanted || granted) return;
    // A transition: a what-if step re-rendering the page meanwhile does not mount the chart in
    // its own (synchronous) render, and the chart's render yields to input.
    turnQueue.push({ token, start: () => startTransition(() => setGranted(true)) });
    if (turnHolder === null) nextTurn();
    return () => cancelWait(token);
  }, [wanted, granted, token]);
  // Unmounted while mounting: the next chart's turn.
  useEffect(() => () => leaveTurn(token), [token]);
  const done = useCallback(() => leaveTurn(token), [token]);
  return [granted, done];
}

/** Renders nothing; calls `onCommit` once the Suspense boundary around it has committed its content. */
function Committed({ onCommit }: { onCommit: () => void }) {
  useEffect(() => onCommit(), [onCommit]);
  return null;
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
export function ChartFrame({ title, caption, height, table, children, legend = [] }: Props) {
  const ref = useRef<HTMLElement>(null);
  const plot = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [exportError, setExportError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [near, mountNow] = useNearViewport(ref);
  const [turn, mounted] = useMountTurn(near === 'near');
  const show = near === 'now' || (near === 'near' && turn);
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
            {show ? (
              <Suspense fallback={<ChartSkeleton height={height} label={`Loading chart: ${title}`} />}>
                {children}
                <Committed onCommit={mounted} />
              </Suspense>
            ) : near === 'near' ? (
              <ChartSkeleton height={height} label={`Loading chart: ${title}`} />
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
