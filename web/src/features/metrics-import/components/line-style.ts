import { COLORS } from '../../../lib/palette.ts';
import type { LegendEntry } from '../../../lib/png-export.ts';
import type { LimitLine } from '../series-view.ts';

/** Where a ceiling's label sits on its line (Recharts label positions). */
export type LineLabelPosition = 'insideTopRight' | 'insideBottomRight' | 'insideTopLeft' | 'insideBottomLeft';

/**
 * How each kind of ceiling and each direction is drawn (hex: exported PNGs have no stylesheet).
 * Volume labels sit at the right end, instance labels at the left, bursts under their line: a
 * volume and an instance ceiling at nearly the same value (a gp3 at 16,000 IOPS on an instance
 * that sustains 15,000) keep their labels apart instead of printing one over the other.
 */
export const LINE_STYLE: Record<
  LimitLine['kind'],
  { stroke: string; dash: string; short: string; labelPosition: LineLabelPosition }
> = {
  volume: { stroke: COLORS.concern, dash: '6 3', short: 'volume', labelPosition: 'insideTopRight' },
  'volume-burst': {
    stroke: COLORS.watch,
    dash: '6 3',
    short: 'volume burst',
    labelPosition: 'insideBottomRight',
  },
  'instance-baseline': {
    stroke: COLORS.text,
    dash: '4 3',
    short: 'instance baseline',
    labelPosition: 'insideTopLeft',
  },
  'instance-burst': {
    stroke: COLORS.neutral,
    dash: '2 3',
    short: 'instance burst',
    labelPosition: 'insideBottomLeft',
  },
};

export const SERIES_COLORS = { read: COLORS.ebs, write: COLORS.iops } as const;

/** The demand chart's legend for the exported PNG: read, write, and each ceiling drawn. */
export function demandLegend(lines: readonly LimitLine[]): LegendEntry[] {
  return [
    { label: 'read', color: SERIES_COLORS.read },
    { label: 'write (stacked on read)', color: SERIES_COLORS.write },
    ...lines.map((l) => ({
      label: l.text,
      color: LINE_STYLE[l.kind].stroke,
      dashed: LINE_STYLE[l.kind].dash,
    })),
  ];
}
