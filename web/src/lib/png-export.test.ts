import { describe, expect, it } from 'vitest';
import { chartExportSvg, composeExportSvg, layoutLegend, legendEntriesIn } from './png-export.ts';

/** A figure as Recharts renders the NVMe-vs-EBS bars: the chart SVG, and its legend as HTML beside it. */
function ratesFigure(): HTMLElement {
  const root = document.createElement('figure');
  root.innerHTML = `
    <div class="chart-frame__plot">
      <svg class="recharts-surface" width="640" height="260" viewBox="0 0 640 260">
        <rect x="80" y="40" width="40" height="180" fill="#0969da"></rect>
        <rect x="130" y="20" width="40" height="200" fill="#8250df"></rect>
      </svg>
      <div class="recharts-legend-wrapper">
        <ul class="recharts-default-legend">
          <li class="recharts-legend-item legend-item-0">
            <svg class="recharts-surface" width="14" height="14"><path class="recharts-legend-icon" fill="#0969da" d="M0,4h32v24h-32z"></path></svg>
            <span class="recharts-legend-item-text" style="color: rgb(9, 105, 218);">EBS: gp3 16,000 IOPS</span>
          </li>
          <li class="recharts-legend-item legend-item-1">
            <svg class="recharts-surface" width="14" height="14"><path class="recharts-legend-icon" fill="#8250df" d="M0,4h32v24h-32z"></path></svg>
            <span class="recharts-legend-item-text" style="color: rgb(130, 80, 223);">NVMe: r6id.4xlarge</span>
          </li>
        </ul>
      </div>
    </div>`;
  document.body.append(root);
  return root;
}

describe('PNG export: title and legend drawn into the image', () => {
  it('reads the legend Recharts draws as HTML', () => {
    const root = ratesFigure();
    expect(legendEntriesIn(root)).toEqual([
      { label: 'EBS: gp3 16,000 IOPS', color: '#0969da' },
      { label: 'NVMe: r6id.4xlarge', color: '#8250df' },
    ]);
    root.remove();
  });

  it('the SVG the PNG is drawn from holds the title, the chart and every legend entry', () => {
    const root = ratesFigure();
    const svg = root.querySelector<SVGSVGElement>('.chart-frame__plot > svg')!;
    const out = chartExportSvg(svg, 'Read IOPS: EBS vs NVMe', legendEntriesIn(root));
    const doc = new DOMParser().parseFromString(out.markup, 'image/svg+xml');
    expect(doc.querySelector('.export-title')?.textContent).toBe('Read IOPS: EBS vs NVMe');
    const items = [...doc.querySelectorAll('.export-legend-item')];
    expect(items.map((g) => g.querySelector('text')?.textContent)).toEqual([
      'EBS: gp3 16,000 IOPS',
      'NVMe: r6id.4xlarge',
    ]);
    expect(items.map((g) => g.querySelector('rect')?.getAttribute('fill'))).toEqual(['#0969da', '#8250df']);
    // The chart keeps its bars, below the title; the image grows to hold the legend.
    expect(doc.querySelectorAll('svg svg rect')).toHaveLength(2);
    expect(out.height).toBeGreaterThan(260 + 28);
    root.remove();
  });

  it('escapes names from uploads and wraps a long legend onto more rows', () => {
    const legend = [
      { label: 'run <a&b> "quoted"', color: '#0969da' },
      { label: 'volume ceiling 16,000 IOPS (gp3 16,000 IOPS, 1,000 MiB/s)', color: '#cf222e', dashed: true },
      { label: 'instance baseline ceiling 20,000 IOPS (r6i.4xlarge)', color: '#1b1f24', dashed: true },
    ];
    const places = layoutLegend(legend, 390);
    expect(places.map((p) => p.row)).toEqual([0, 1, 2]);
    const out = composeExportSvg({
      chartMarkup: '<svg xmlns="http://www.w3.org/2000/svg" width="390" height="200"></svg>',
      width: 390,
      height: 200,
      title: 'IOPS over time',
      legend,
    });
    expect(out.markup).toContain('run &lt;a&amp;b&gt; &quot;quoted&quot;');
    expect(out.markup).toContain('stroke-dasharray="4 2"');
    expect(out.height).toBe(28 + 200 + 3 * 20 + 10);
  });
});
