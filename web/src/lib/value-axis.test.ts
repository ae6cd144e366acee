import { describe, expect, it } from 'vitest';
import { fmtInt, fmtNum } from './format.ts';
import { tickTextWidth, valueAxisLabel, valueAxisLayout } from './value-axis.ts';

/** Where the widest tick label starts, and where the rotated title's band ends (px from the axis' left edge). */
function clearance(max: number, format: (v: number) => string, fontSize: number) {
  const layout = valueAxisLayout(max, format, fontSize);
  const widest = Math.max(tickTextWidth(format(max), fontSize), tickTextWidth(format(max * 1.25), fontSize));
  const tickStart = layout.width - 8 - widest;
  const titleEnd = layout.labelOffset + fontSize / 2;
  return { layout, tickStart, titleEnd };
}

describe('valueAxisLayout', () => {
  it.each([
    // NVMe vs EBS IOPS (RatesChart, 12 px): the old fixed 64 px put "IOPS" across "120,000".
    ['IOPS, 12 px', 118_000, (v: number) => fmtInt(v), 12],
    ['MiB/s, 12 px', 2_850, (v: number) => fmtNum(v, 0), 12],
    ['history IOPS, 11 px', 1_250_000, (v: number) => fmtNum(v, 0), 11],
    ['clat ms, 11 px', 12.5, (v: number) => `${v}`, 11],
  ])('%s: the widest tick label starts right of the title', (_what, max, format, fontSize) => {
    const { tickStart, titleEnd } = clearance(max, format, fontSize);
    expect(tickStart).toBeGreaterThanOrEqual(titleEnd);
  });

  it('the old fixed width did overlap (why the width is computed)', () => {
    const fontSize = 12;
    const oldWidth = 64;
    const oldTitleEnd = 5 + fontSize / 2; // Recharts' default insideLeft offset is 5
    expect(oldWidth - 8 - tickTextWidth(fmtInt(118_000 * 1.25), fontSize)).toBeLessThan(oldTitleEnd);
  });

  it('the title is centered in its band', () => {
    const layout = valueAxisLayout(16_000, fmtInt, 12);
    expect(valueAxisLabel('IOPS', layout, '#57606a', 12)).toMatchObject({
      value: 'IOPS',
      angle: -90,
      position: 'insideLeft',
      offset: layout.labelOffset,
      textAnchor: 'middle',
    });
  });
});
