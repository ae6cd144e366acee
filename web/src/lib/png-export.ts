/**
 * PNG of a chart without a library: the chart's SVG is serialized, loaded as an image (a data:
 * URL — allowed by the CSP's `img-src 'self' data: blob:`), drawn on a canvas with a white
 * background at 2× for sharp slides, and saved. Fonts and colors are copied onto the clone as
 * presentation attributes first: the exported file has no access to the page's stylesheets.
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

export async function chartToPngBlob(svg: SVGSVGElement, title: string, scale = 2): Promise<Blob> {
  const { markup, width, height } = serializeChartSvg(svg);
  const img = new Image();
  img.decoding = 'async';
  const loaded = new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error('the chart could not be rendered as an image'));
  });
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
  await loaded;
  const titleHeight = 28;
  const canvas = document.createElement('canvas');
  canvas.width = width * scale;
  canvas.height = (height + titleHeight) * scale;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser cannot draw on a canvas');
  ctx.scale(scale, scale);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height + titleHeight);
  ctx.fillStyle = '#1b1f24';
  ctx.font = '600 14px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  ctx.fillText(title, 8, 19);
  ctx.drawImage(img, 0, titleHeight, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be encoded'))), 'image/png'),
  );
}
