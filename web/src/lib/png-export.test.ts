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

  it('reads the latency legend: plain-line icons, the dashed run dashed, an unset dash pattern solid', () => {
    const root = document.createElement('figure');
    // As Recharts 3 draws `legendType="plainline"`: the dash pattern of a solid line comes out as "undefined".
    root.innerHTML = `
      <ul>
        <li class="recharts-legend-item"><svg><line class="recharts-legend-icon" stroke-width="4" fill="none" stroke="#8250df" stroke-dasharray="undefined"></line></svg>
          <span class="recharts-legend-item-text">NVMe: r6id.4xlarge</span></li>
        <li class="recharts-legend-item"><svg><line class="recharts-legend-icon" stroke-width="4" fill="none" stroke="#0969da" stroke-dasharray="6 3"></line></svg>
          <span class="recharts-legend-item-text">EBS: gp3</span></li>
      </ul>`;
    expect(legendEntriesIn(root)).toEqual([
      { label: 'NVMe: r6id.4xlarge', color: '#8250df' },
      { label: 'EBS: gp3', color: '#0969da', dashed: '6 3' },
    ]);
  });

  it.each([
    [
      'a bar colour',
      { label: 'headroom', color: '#57606a' },
      '<rect x="8" y="{y1}" width="12" height="12" fill="#57606a"/>',
    ],
    [
      'a faded bar (burst ceiling)',
      { label: 'faded: burst ceiling (temporary)', color: '#57606a', opacity: 0.45 },
      '<rect x="8" y="{y1}" width="12" height="12" fill="#57606a" fill-opacity="0.45"/>',
    ],
    [
      'a framed bar (the bottleneck)',
      { label: 'bottleneck', color: '#cf222e', outline: '#1b1f24' },
      '<rect x="8" y="{y1}" width="12" height="12" fill="#cf222e" stroke="#1b1f24" stroke-width="1.5"/>',
    ],
    [
      'a dotted line in its own pattern (an instance burst ceiling)',
      { label: 'instance burst', color: '#57606a', dashed: '2 3' },
      '<line x1="8" y1="{y7}" x2="22" y2="{y7}" stroke="#57606a" stroke-width="2" stroke-dasharray="2 3"/>',
    ],
    [
      'a ring (the latency chart’s cliff marker)',
      { label: 'cliff', color: '#cf222e', ring: true },
      '<circle cx="15" cy="{y7}" r="5.5" fill="none" stroke="#cf222e" stroke-width="2"/>',
    ],
  ])('swatch of %s', (_what, entry, swatch) => {
    const out = composeExportSvg({
      chartMarkup: '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"></svg>',
      width: 600,
      height: 200,
      title: 'What binds',
      legend: [entry],
    });
    // The legend band starts under the title (28) and the chart (200), 6 px down.
    const top = 28 + 200 + 6;
    const expected = swatch.replaceAll('{y1}', String(top + 1)).replaceAll('{y7}', String(top + 7));
    const item = new DOMParser()
      .parseFromString(out.markup, 'image/svg+xml')
      .querySelector('.export-legend-item')!;
    expect(new XMLSerializer().serializeToString(item.firstElementChild!).replace(/ xmlns="[^"]*"/, '')).toBe(
      expected,
    );
    expect(item.querySelector('text')?.textContent).toBe(entry.label);
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
