/**
 * PNG of a chart without a library: the chart's SVG is serialized, loaded as an image (a data:
 * URL — allowed by the CSP's `img-src 'self' data: blob:`), drawn on a canvas with a white
 * background at 2× for sharp slides, and saved. Fonts and colors are copied onto the clone as
 * presentation attributes first: the exported file has no access to the page's stylesheets. The
 * title and the legend (HTML beside the chart on the page) are drawn into the image as SVG.
 */

const STYLE_PROPS = [
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'opacity',
  'fill-opacity',
] as const;
const TEXT_PROPS = ['font-family', 'font-size', 'font-weight'] as const;

function inlineStyles(source: SVGSVGElement, clone: SVGSVGElement): void {
  const from = source.querySelectorAll('*');
  const to = clone.querySelectorAll('*');
  from.forEach((el, i) => {
    const target = to[i];
    if (!target) return;
    const cs = getComputedStyle(el);
    for (const prop of STYLE_PROPS) {
      const value = cs.getPropertyValue(prop);
      if (value && !target.getAttribute(prop)) target.setAttribute(prop, value);
    }
    if (el.tagName.toLowerCase() === 'text' || el.tagName.toLowerCase() === 'tspan') {
      for (const prop of TEXT_PROPS) {
        const value = cs.getPropertyValue(prop);
        if (value) target.setAttribute(prop, value);
      }
    }
  });
}

/** The SVG markup of a chart, standalone (namespace, size, inlined colors and fonts). */
export function serializeChartSvg(svg: SVGSVGElement): { markup: string; width: number; height: number } {
  const box = svg.getBoundingClientRect();
  const width = Math.max(1, Math.round(box.width || Number(svg.getAttribute('width')) || 800));
  const height = Math.max(1, Math.round(box.height || Number(svg.getAttribute('height')) || 400));
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, clone);
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  if (!clone.getAttribute('viewBox')) clone.setAttribute('viewBox', `0 0 ${width} ${height}`);
  return { markup: new XMLSerializer().serializeToString(clone), width, height };
}

/**
 * One legend entry as the export draws it: a swatch and its text. The swatch is a solid square
 * (faded by `opacity`, framed by `outline` — as a bar is drawn), a dashed line (a reference
 * line), or a ring (a marker such as the latency chart's cliffs).
 */
export type LegendEntry = {
  label: string;
  color: string;
  /** A line swatch: `true` for a generic dash, or the line's own dash pattern ("2 3" dotted). */
  dashed?: boolean | string;
  ring?: boolean;
  opacity?: number;
  outline?: string;
};

const LEGEND_FONT = 12;
const TITLE_HEIGHT = 28;
const LEGEND_ROW = 20;
const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/** A color attribute that paints something ("none" and "transparent" do not). */
function paint(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v && v !== 'none' && v !== 'transparent' ? v : null;
}

/**
 * The entries of Recharts' legends under `root`. Recharts draws its legend as HTML beside the chart
 * SVG (`li.recharts-legend-item`: a small SVG icon and the series name), so the exported SVG would
 * lose it: the export reads it here and draws it into the image.
 */
export function legendEntriesIn(root: ParentNode): LegendEntry[] {
  const entries: LegendEntry[] = [];
  root.querySelectorAll<HTMLElement>('.recharts-legend-item').forEach((item) => {
    const label = (
      item.querySelector('.recharts-legend-item-text')?.textContent ??
      item.textContent ??
      ''
    ).trim();
    if (!label) return;
    const icon = item.querySelector('.recharts-legend-icon, path, line, rect');
    const text = item.querySelector<HTMLElement>('.recharts-legend-item-text');
    const color =
      paint(icon?.getAttribute('fill')) ??
      paint(icon?.getAttribute('stroke')) ??
      paint(text?.style.color) ??
      '#1b1f24';
    const dash = icon?.getAttribute('stroke-dasharray')?.trim();
    // Recharts writes an unset dash pattern as the text "undefined" on its legend icons.
    const dashed = !!dash && dash !== 'none' && dash !== 'undefined' && dash !== '0';
    entries.push({ label, color, ...(dashed ? { dashed: dash } : {}) });
  });
  return entries;
}

/** Width of a text at the legend's font size (an estimate: the export has no layout engine to ask). */
const textWidth = (text: string) => Math.ceil(text.length * LEGEND_FONT * 0.6);

/** Legend entries laid out left to right, wrapping at `width`: the x and row of each. */
export function layoutLegend(entries: readonly LegendEntry[], width: number): { x: number; row: number }[] {
  const out: { x: number; row: number }[] = [];
  let x = 8;
  let row = 0;
  for (const e of entries) {
    const w = 18 + textWidth(e.label) + 16;
    if (x > 8 && x + w > width) {
      x = 8;
      row += 1;
    }
    out.push({ x, row });
    x += w;
  }
  return out;
}

/** The swatch of a legend entry whose row starts at (x, y). */
function swatchSvg(e: LegendEntry, x: number, y: number): string {
  const color = escapeXml(e.color);
  if (e.dashed) {
    const pattern = escapeXml(typeof e.dashed === 'string' ? e.dashed : '4 2');
    return `<line x1="${x}" y1="${y + 7}" x2="${x + 14}" y2="${y + 7}" stroke="${color}" stroke-width="2" stroke-dasharray="${pattern}"/>`;
  }
  if (e.ring)
    return `<circle cx="${x + 7}" cy="${y + 7}" r="5.5" fill="none" stroke="${color}" stroke-width="2"/>`;
  const faded = e.opacity !== undefined ? ` fill-opacity="${e.opacity}"` : '';
  const framed = e.outline ? ` stroke="${escapeXml(e.outline)}" stroke-width="1.5"` : '';
  return `<rect x="${x}" y="${y + 1}" width="12" height="12" fill="${color}"${faded}${framed}/>`;
}

/**
 * The exported image as one SVG: the title on top, the chart, and its legend underneath (each
 * series' swatch and name), so a slide shows which color is NVMe and which is EBS.
 */
export function composeExportSvg({
  chartMarkup,
  width,
  height,
  title,
  legend,
}: {
  /** A standalone `<svg …>` (serializeChartSvg). */
  chartMarkup: string;
  width: number;
  height: number;
  title: string;
  legend: readonly LegendEntry[];
}): { markup: string; width: number; height: number } {
  const places = layoutLegend(legend, width);
  const rows = legend.length === 0 ? 0 : Math.max(...places.map((p) => p.row)) + 1;
  const legendTop = TITLE_HEIGHT + height + 6;
  const total = TITLE_HEIGHT + height + (rows > 0 ? rows * LEGEND_ROW + 10 : 0);
  const chart = chartMarkup.replace(/^<svg\b/, `<svg x="0" y="${TITLE_HEIGHT}"`);
  const items = legend.map((e, i) => {
    const { x, row } = places[i]!;
    const y = legendTop + row * LEGEND_ROW;
    const swatch = swatchSvg(e, x, y);
    return `<g class="export-legend-item">${swatch}<text x="${x + 18}" y="${y + 11}" font-size="${LEGEND_FONT}" font-family="${escapeXml(FONT_FAMILY)}" fill="#1b1f24">${escapeXml(e.label)}</text></g>`;
  });
  const markup = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${total}" viewBox="0 0 ${width} ${total}">`,
    `<rect width="${width}" height="${total}" fill="#ffffff"/>`,
    `<text class="export-title" x="8" y="19" font-size="14" font-weight="600" font-family="${escapeXml(FONT_FAMILY)}" fill="#1b1f24">${escapeXml(title)}</text>`,
    chart,
    rows > 0 ? `<g class="export-legend">${items.join('')}</g>` : '',
    '</svg>',
  ].join('');
  return { markup, width, height: total };
}

/** The SVG the PNG is drawn from: the chart with its title and legend (exported for tests). */
export function chartExportSvg(
  svg: SVGSVGElement,
  title: string,
  legend: readonly LegendEntry[],
): { markup: string; width: number; height: number } {
  const chart = serializeChartSvg(svg);
  return composeExportSvg({
    chartMarkup: chart.markup,
    width: chart.width,
    height: chart.height,
    title,
    legend,
  });
}

export async function chartToPngBlob(
  svg: SVGSVGElement,
  title: string,
  legend: readonly LegendEntry[] = [],
  scale = 2,
): Promise<Blob> {
  const { markup, width, height } = chartExportSvg(svg, title, legend);
  const img = new Image();
  img.decoding = 'async';
  const loaded = new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error('the chart could not be rendered as an image'));
  });
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
  await loaded;
  const canvas = document.createElement('canvas');
  canvas.width = width * scale;
  canvas.height = height * scale;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser cannot draw on a canvas');
  ctx.scale(scale, scale);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(img, 0, 0, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be encoded'))), 'image/png'),
  );
}
