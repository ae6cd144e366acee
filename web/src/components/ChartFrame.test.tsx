import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { lazy } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHART_ROOT_MARGIN, ChartFrame, whenChartDrawn } from './ChartFrame.tsx';

const png = vi.hoisted(() => ({ downloads: [] as string[], drawn: [] as SVGSVGElement[] }));
vi.mock('../lib/png-export.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  chartToPngBlob: async (svg: SVGSVGElement) => {
    png.drawn.push(svg);
    return new Blob(['png'], { type: 'image/png' });
  },
}));
vi.mock('../lib/download.ts', () => ({
  downloadBlob: (_blob: Blob, fileName: string) => png.downloads.push(fileName),
}));

/** IntersectionObserver as the browser's, driven by the test: `scrollNear()` reports the frame in range. */
class FakeIntersectionObserver {
  static all: FakeIntersectionObserver[] = [];
  targets: Element[] = [];
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeIntersectionObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.push(target);
  }
  disconnect() {
    this.targets = [];
  }
  unobserve() {}
  takeRecords() {
    return [];
  }
  static scrollNear() {
    for (const o of FakeIntersectionObserver.all)
      o.callback(
        o.targets.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry),
        o as unknown as IntersectionObserver,
      );
  }
}

/** A chart whose (lazy) module resolves only when the test says so: like Recharts' chunk arriving. */
function deferredChart() {
  let arrive = () => {};
  const loaded = new Promise<void>((resolve) => (arrive = resolve));
  const load = vi.fn(async () => {
    await loaded;
    return {
      default: () => (
        <svg width={300} height={120} data-testid="chart">
          <rect width={10} height={10} />
        </svg>
      ),
    };
  });
  return { Chart: lazy(load), load, arrive: () => act(async () => arrive()) };
}

beforeEach(() => {
  FakeIntersectionObserver.all = [];
  png.downloads.length = 0;
  png.drawn.length = 0;
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
});
afterEach(() => vi.unstubAllGlobals());

describe('ChartFrame: a chart mounts when it nears the viewport', () => {
  it('below the fold: no chart code is loaded, the plot keeps its height; near the viewport it draws', async () => {
    const { Chart, load, arrive } = deferredChart();
    const { container } = render(
      <ChartFrame title="What binds" height={240}>
        <Chart />
      </ChartFrame>,
    );
    const plot = container.querySelector<HTMLElement>('.chart-frame__plot')!;
    expect(plot.style.minHeight).toBe('240px');
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByRole('status')).toBeNull();
    expect(FakeIntersectionObserver.all.map((o) => o.options.rootMargin)).toEqual([CHART_ROOT_MARGIN]);

    act(() => FakeIntersectionObserver.scrollNear());
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('Loading chart: What binds');
    await arrive();
    expect(await screen.findByTestId('chart')).toBeDefined();
    expect(FakeIntersectionObserver.all.every((o) => o.targets.length === 0)).toBe(true);
  });

  it('without IntersectionObserver the chart mounts at once', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const { Chart, load } = deferredChart();
    render(
      <ChartFrame title="Latency" height={200}>
        <Chart />
      </ChartFrame>,
    );
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('Loading chart: Latency');
  });

  it('eager: a plain-SVG chart draws at once, far below the fold (and for print)', () => {
    render(
      <ChartFrame title="What binds" height={240} eager>
        <svg data-testid="chart" />
      </ChartFrame>,
    );
    expect(screen.getByTestId('chart')).toBeDefined();
    expect(FakeIntersectionObserver.all).toHaveLength(0);
  });
});

describe('ChartFrame: Download PNG', () => {
  it('of a chart never scrolled to: mounts it, waits until it is drawn, then saves the PNG', async () => {
    const { Chart, load, arrive } = deferredChart();
    render(
      <ChartFrame title="Monthly cost" height={240}>
        <Chart />
      </ChartFrame>,
    );
    const button = screen.getByRole('button', { name: 'Download PNG: Monthly cost' });
    fireEvent.click(button);
    expect(load).toHaveBeenCalledTimes(1);
    // While it waits for the chart: busy, and a second click starts nothing.
    await waitFor(() => expect(button.textContent).toBe('Preparing PNG…'));
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await arrive();
    await waitFor(() => expect(png.downloads).toEqual(['monthly-cost.png']));
    expect(button.textContent).toBe('Download PNG');
    expect(png.drawn).toEqual([screen.getByTestId('chart')]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('of a chart already drawn: saves at once', async () => {
    const { Chart, arrive } = deferredChart();
    render(
      <ChartFrame title="IOPS" height={240}>
        <Chart />
      </ChartFrame>,
    );
    act(() => FakeIntersectionObserver.scrollNear());
    await arrive();
    await screen.findByTestId('chart');
    fireEvent.click(screen.getByRole('button', { name: 'Download PNG: IOPS' }));
    await waitFor(() => expect(png.downloads).toEqual(['iops.png']));
  });
});

describe('whenChartDrawn', () => {
  it('resolves with the SVG a chart adds to the plot', async () => {
    const figure = document.createElement('figure');
    figure.innerHTML = '<div class="chart-frame__plot"></div>';
    const waiting = whenChartDrawn(figure, { quietMs: 0, timeoutMs: 5_000 });
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('width', '100');
    svg.setAttribute('height', '50');
    figure.firstElementChild!.append(svg);
    expect(await waiting).toBe(svg);
  });

  it('gives up when no chart appears', async () => {
    const figure = document.createElement('figure');
    figure.innerHTML = '<div class="chart-frame__plot"></div>';
    await expect(whenChartDrawn(figure, { quietMs: 0, timeoutMs: 10 })).rejects.toThrow(
      'The chart is not drawn yet.',
    );
  });
});
